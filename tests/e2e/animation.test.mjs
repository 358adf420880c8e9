// End-to-end tests of the animation (release build in dist/): counters change when the token
// that causes them arrives, not before; the first play is slow enough to follow one request.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, start } from './harness.mjs';

let env;

before(async () => {
    env = await start();
});
after(async () => { await env?.close(); });

/** A page on `query` at 1366x768 (or `size`), ready when the Watch's Play is there. */
function open(query, size = { width: 1366, height: 768 }) {
    return openPage(env.browser, env.base, query, { viewport: size });
}

/**
 * Samples side A's pipeline after every animation frame for `ms`: per column, the count its
 * readout shows, and the tokens drawn in or through that column at that frame. A token counts
 * for a column when it rests inside it, when it is gliding out of it (its transition starts
 * there), or when its glide into the column (or across it, rightwards) has reached the column's
 * edge. Returns the frames where a
 * readout showed more requests than tokens drawn there.
 */
async function sampleCounters(page, ms) {
    return page.evaluate((ms) => new Promise((resolve) => {
        // A link with a speed plays at once; Play only if it does not.
        if (!/Pause/.test(document.querySelector('#play').textContent)) document.querySelector('#play').click();
        // Column x ranges in the view box (components/src/pipeline_layout.rs COLUMNS).
        const cols = { blk: [186, 356], slots: [506, 676] };
        const xOf = (t) => {
            if (!t || t === 'none') return null;
            const m = t.match(/matrix\(([^)]+)\)/);
            if (m) return Number(m[1].split(',')[4]);
            const tr = t.match(/translate\(\s*(-?[\d.]+)/);
            return tr ? Number(tr[1]) : null;
        };
        const counts = () => {
            const texts = [...document.querySelectorAll('#a-pipeline text.small')].map((t) => t.textContent);
            const q = (re) => { for (const t of texts) { const m = t.match(re); if (m) return Number(m[1]); } return 0; };
            return {
                blk: q(/^queued · (\d+)/) + q(/^refused · (\d+)/),
                slots: q(/^(\d+) waiting · /),
            };
        };
        const drawn = () => {
            const out = { blk: 0, slots: 0 };
            for (const g of document.querySelectorAll('#a-pipeline g.token')) {
                const x = xOf(getComputedStyle(g).transform);
                const anim = g.getAnimations().find((a) => a.playState === 'running');
                const kf = anim ? anim.effect.getKeyframes() : [];
                const from = anim ? xOf(kf[0]?.transform) : null;
                const to = anim ? xOf(kf[kf.length - 1]?.transform) : null;
                for (const [k, [l, r]] of Object.entries(cols)) {
                    const resting = !anim && x !== null && x >= l && x <= r;
                    const leaving = from !== null && from >= l && from <= r;
                    // Gliding rightwards into (or across) the column, and already past its edge.
                    const reached = from !== null && from < l && to >= l && x >= l;
                    if (resting || leaving || reached) out[k]++;
                }
            }
            return out;
        };
        const bad = [];
        let frames = 0;
        const t0 = performance.now();
        const tick = () => setTimeout(() => {
            frames++;
            const c = counts();
            const d = drawn();
            for (const k of Object.keys(d)) {
                if (c[k] > d[k]) bad.push(`${k}: shows ${c[k]}, ${d[k]} drawn (frame ${frames})`);
            }
            if (performance.now() - t0 < ms) requestAnimationFrame(tick);
            else resolve({ frames, bad });
        }, 0);
        requestAnimationFrame(tick);
    }), ms);
}

test('a counter changes when its token arrives, not before (10 µs/s, 4 jobs)', async () => {
    const { page, problems } = await open('?numjobs=4&speed=10us');
    const { frames, bad } = await sampleCounters(page, 8000);
    assert.ok(frames > 50, `sampled ${frames} frames`);
    assert.deepEqual(bad.slice(0, 8), [], `${bad.length} of ${frames} frames show a count before its token`);
    assert.deepEqual(problems, []);
    await page.close();
});

/**
 * Follows every token of the pipelines matching `sel` that appears and leaves within `ms` of
 * real time (a request from its submission to its reaping): its stage changes (the
 * `data-stage` the page writes) per real second of its life. Returns the rates by side.
 */
async function stageChangesPerSecond(page, sel, ms) {
    return page.evaluate(({ sel, ms }) => new Promise((resolve) => {
        const seen = new Map();
        const key = (g) => `${g.closest('figure').id}/${g.dataset.req}`;
        const at0 = new Set([...document.querySelectorAll(`${sel} g.token`)].map(key));
        const look = () => {
            const t = performance.now();
            const now = new Set();
            for (const g of document.querySelectorAll(`${sel} g.token`)) {
                const k = key(g);
                now.add(k);
                const s = seen.get(k) ?? { first: t, changes: 0, stage: g.dataset.stage };
                if (g.dataset.stage !== s.stage) {
                    s.changes++;
                    s.stage = g.dataset.stage;
                }
                s.last = t;
                seen.set(k, s);
            }
            for (const [k, s] of seen) if (!now.has(k)) s.gone = true;
        };
        const obs = new MutationObserver(look);
        for (const f of document.querySelectorAll(sel)) {
            obs.observe(f, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-stage'] });
        }
        setTimeout(() => {
            obs.disconnect();
            const rates = {};
            for (const [k, s] of seen) {
                if (at0.has(k) || !s.gone || s.last <= s.first) continue;
                (rates[k.split('/')[0]] ??= []).push(s.changes * 1000 / (s.last - s.first));
            }
            resolve(rates);
        }, ms);
    }), { sel, ms });
}

const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

test('the first play picks a speed at which one request can be followed: landing and Lab', async () => {
    // The landing plays at once, at the speed derived from its pair.
    const { page, problems } = await open('');
    await page.waitForSelector('#follow-note');
    const note = await page.textContent('#follow-note');
    assert.match(note, /^Slowed to \d+ (ns|µs|ms) per second so you can follow one request/);
    assert.match(await page.$eval('#speed', (s) => s.selectedOptions[0].textContent), /follow one request/);
    const landing = await stageChangesPerSecond(page, '.pipeline', 10_000);
    for (const side of ['a-pipeline', 'b-pipeline']) {
        assert.ok(landing[side]?.length >= 3, `${side}: ${JSON.stringify(landing)}`);
        console.log(`landing ${side}: ${median(landing[side]).toFixed(2)} stage changes per second (median of ${landing[side].length} tokens)`);
    }
    // A and B play in lockstep at one speed: the median token of the pair is followed.
    const both = median([...landing['a-pipeline'], ...landing['b-pipeline']]);
    assert.ok(both >= 1 && both <= 8, `a followed token changes stage ${both.toFixed(2)} times a second`);
    console.log(`landing: ${both.toFixed(2)} stage changes per second; ${note}`);
    // The Lab: another scenario, its first Play derives its own speed.
    await page.goto(env.base + '?numjobs=4&bs=64k');
    await page.waitForSelector('#play');
    assert.equal(await page.$('#follow-note'), null, 'no play yet');
    await page.click('#play');
    await page.waitForSelector('#follow-note');
    const lab = await stageChangesPerSecond(page, '#a-pipeline', 10_000);
    const m = median(lab['a-pipeline'] ?? []);
    assert.ok(m >= 1 && m <= 8, `Lab: ${m} stage changes per second ${JSON.stringify(lab)}`);
    console.log(`Lab (4 jobs, 64 KiB): ${m.toFixed(2)} stage changes per second; ${await page.textContent('#follow-note')}`);
    assert.deepEqual(problems, []);
    await page.close();
});

test('a link\'s speed= overrides the derived speed', async () => {
    const { page, problems } = await open('?numjobs=4&speed=50us');
    await page.waitForFunction(() => /Pause/.test(document.querySelector('#play').textContent));
    assert.equal(await page.$eval('#speed', (s) => s.selectedOptions[0].textContent), '50 µs/s');
    assert.equal(await page.$('#follow-note'), null);
    assert.deepEqual(problems, []);
    await page.close();
});

test('as fast as possible, token elements are reused by position instead of created per request', async () => {
    const { page, problems } = await open('?numjobs=20&packed=8&b.packed=0');
    await page.selectOption('#speed', '8');
    const { added, most, requests } = await page.evaluate(() => new Promise((resolve) => {
        let added = 0;
        let most = 0;
        const reqs = new Set();
        const obs = new MutationObserver((records) => {
            for (const r of records) {
                added += [...r.addedNodes].filter((n) => n.classList?.contains('token')).length;
            }
        });
        for (const g of document.querySelectorAll('.pipeline g.tokens')) obs.observe(g, { childList: true });
        const look = () => {
            const toks = document.querySelectorAll('.pipeline g.token');
            most = Math.max(most, toks.length);
            for (const t of toks) reqs.add(t.closest('figure').id + t.dataset.req);
        };
        const id = setInterval(look, 50);
        document.querySelector('#play').click();
        setTimeout(() => { clearInterval(id); obs.disconnect(); look(); resolve({ added, most, requests: reqs.size }); }, 3000);
    }));
    console.log(`${requests} requests drawn, ${added} token elements created (at most ${most} at once)`);
    assert.ok(requests > 4 * most, `the run moved on: ${requests} requests, ${most} tokens at once`);
    assert.ok(added <= 2 * most, `${added} token elements created for ${requests} requests`);
    assert.deepEqual(problems, []);
    await page.close();
});

test('the requests one large I/O was split into are boxed together: "1 I/O → N requests"', async () => {
    const { page, problems } = await open('?bs=2m&rw=write&numjobs=2&speed=10us');
    await page.waitForSelector('#a-pipeline .io-group');
    const groups = await page.$$eval('#a-pipeline .io-group', (gs) => gs.map((g) => ({
        io: g.dataset.io,
        label: g.textContent,
        requests: Number(g.dataset.requests),
        drawn: document.querySelectorAll(`#a-pipeline g.token[data-io="${g.dataset.io}"]`).length,
    })));
    for (const g of groups) {
        assert.match(g.label, /^1 I\/O → \d+ requests$/);
        assert.equal(Number(g.label.match(/→ (\d+)/)[1]), g.requests);
        assert.ok(g.requests >= 2 && g.drawn >= 1, JSON.stringify(g));
    }
    assert.deepEqual(problems, []);
    await page.close();
});

test('a request that bios merged into wears a halo, and blk-mq counts the merged bios as fio does', async () => {
    // fio's batched io_submit: 8 sequential 4 KiB writes per plug merge into 32 KiB requests
    // (the kernel under QEMU made 128 requests of 32 KiB of these 1024 writes).
    const { page, problems } = await open('?platform=qemu-sdhci-pci&rw=write&ioengine=libaio&iodepth=8&iodepth_batch_submit=8&size=4m&speed=10us');
    // A link with a speed plays at once.
    await page.waitForFunction(() => /Pause/.test(document.querySelector('#play').textContent));
    await page.waitForSelector('#a-pipeline g.token.merged', { timeout: 20000 });
    const merged = await page.$$eval('#a-pipeline g.token.merged', (ts) => ts.map((t) => ({
        bios: Number(t.dataset.bios),
        title: t.querySelector('title').textContent,
        halo: t.querySelectorAll('.halo').length,
    })));
    for (const m of merged) {
        assert.ok(m.bios >= 2 && m.bios <= 8, JSON.stringify(m));
        assert.equal(m.halo, 1, JSON.stringify(m));
        assert.match(m.title, new RegExp(`write ${m.bios * 4096} B · ${m.bios} bios merged into one request`));
    }
    const plain = await page.$$eval('#a-pipeline g.token:not(.merged)', (ts) => ts.map((t) => t.dataset.bios));
    assert.ok(plain.every((b) => b === '1'), plain.join(','));
    await page.waitForFunction(() => /bios merged: [1-9]/.test(document.querySelector('#a-merges')?.textContent ?? ''));
    assert.deepEqual(problems, []);
    await page.close();
});
