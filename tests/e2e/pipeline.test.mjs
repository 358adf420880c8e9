// End-to-end test of "Watch the pipeline" on the release build in dist/ (`make test-e2e` builds
// it): each platform preset's headline effect is seen in the animation and saved as
// pipeline-<preset>.png (target/screenshots/, or docs/ under `make screenshots`); the time
// controls, the keyboard, reduced motion and the A/B link are driven as a user would. Any
// console error or page error fails the test. The frame-time figures are printed, not asserted
// (`make bench-web` runs the fuller benchmark).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, frameStats, screenshotPath } from './harness.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

// Each preset with the host change its patch series measured as B, the moment that shows the
// effect in the animation, and what the explanation says to watch for.
const PRESETS = [
    {
        name: 'sprd-hs400es-2020',
        query: '?numjobs=20&packed=8&b.packed=0',
        // A chain of several requests on the controller: they leave together, one interrupt.
        moment: () => {
            const c = document.querySelector('#a-chain');
            return c?.dataset.chained === 'true' && Number(c.dataset.len) >= 5;
        },
        hint: /ADMA3 chain/,
    },
    {
        name: 'unisoc-fua-2022',
        query: '?platform=unisoc-fua-2022&rw=randwrite&sync=1&b.fua=0',
        // A reliable write holding the card busy.
        moment: () => document.querySelector('#a-reliable') !== null,
        hint: /reliable write/,
    },
    {
        name: 'u300-mmci-2011',
        query: '?platform=u300-mmci-2011&rw=write&numjobs=4&nonblocking=1&b.nonblocking=0',
        speed: '5', // 5 ms/s: the SD card takes about 1.4 ms per 4 KiB write
        // A data transfer on the bus with the next request already prepared (4 jobs, so there
        // is a next one: the authors' mmc_test loop always has one).
        moment: () => document.querySelector('#a-bus')?.textContent === 'data'
            && document.querySelector('#a-pipeline .token[data-stage="host queue"]') !== null,
        hint: /non-blocking/,
    },
    {
        name: 'unisoc-hsq-2023',
        query: '?platform=unisoc-hsq-2023&rw=randwrite&numjobs=8&b.hsq_depth=2',
        // The dynamic depth switched: window 6 with 4 KiB writes.
        moment: () => document.querySelector('#a-window')?.dataset.window === '6'
            && document.querySelector('#a-window')?.textContent.startsWith('in flight 5'),
        hint: /widens from 3 to 6/,
    },
];

for (const p of PRESETS) {
    test(`pipeline on ${p.name} shows its effect and is saved as pipeline-${p.name}.png`, async () => {
        const { page, problems } = await openPage(env.browser, env.base, p.query);
        assert.ok(await page.$('#b-pipeline'), 'the link compares A and B: both pipelines');
        await page.selectOption('#speed', p.speed ?? '4'); // 1 ms of simulated time per second
        await page.click('#play');
        await page.waitForTimeout(2500); // the strip and the charts fill up
        // Pause in the very frame that shows the effect.
        await page.waitForFunction(`(${p.moment})() && (document.querySelector('#play').click(), true)`, null, { timeout: 60_000, polling: 'raf' });
        await page.waitForSelector('#play:has-text("Play")');
        assert.ok(await page.evaluate(`(${p.moment})()`), 'paused on the effect');
        assert.match(await page.textContent('#explain'), p.hint);
        // Follow a request: click its token (the pointer stays off the columns, whose hover
        // explanation would take the panel).
        await page.mouse.move(2, 2);
        await page.$eval('#a-pipeline .token:not(.done)', (t) => t.dispatchEvent(new MouseEvent('click', { bubbles: true })));
        await page.waitForSelector('#request-life');
        const rows = await page.$$eval('#request-life tbody tr', (r) => r.length);
        assert.ok(rows >= 2, `the request's life has its stages (${rows})`);
        assert.ok(Number(await page.getAttribute('#a-pipeline svg', 'data-tokens')) > 0);
        assert.ok(Number(await page.getAttribute('#a-strip', 'data-rects')) > 10, 'the bus strip has segments');
        assert.ok(await page.$('#ab-table tr[data-metric=mib-s]'));
        await (await page.$('#watch')).screenshot({ path: await screenshotPath(`pipeline-${p.name}.png`) });
        assert.deepEqual(problems, []);
        await page.close();
    });
}

test('play, pause, step, speed and the keyboard drive the simulated clock', async () => {
    const { page, problems } = await openPage(env.browser, env.base, '?size=1m');
    const clock = () => page.textContent('#sim-clock');
    assert.equal(await page.getAttribute('#a-pipeline svg', 'data-tokens'), '0');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => Number(document.querySelector('#a-pipeline svg').dataset.tokens) > 0);
    await page.click('#step');
    await page.click('#step');
    const stepped = await clock();
    // Space plays, space pauses; the clock moves in between and stands still after.
    await page.keyboard.press('Space');
    await page.waitForSelector('#play:has-text("Pause")');
    await page.waitForTimeout(500);
    await page.keyboard.press('Space');
    await page.waitForSelector('#play:has-text("Play")');
    const paused = await clock();
    assert.notEqual(paused, stepped);
    await page.waitForTimeout(300);
    assert.equal(await clock(), paused);
    // Keys typed into a control do not play.
    await page.fill('#ctl-bs', '4k');
    await page.focus('#ctl-bs');
    await page.keyboard.press('Space');
    await page.waitForTimeout(100);
    assert.ok((await page.textContent('#play')).includes('Play'));
    await page.click('h2');
    // As fast as possible: the run ends, the live charts are drawn.
    await page.selectOption('#speed', '8');
    await page.click('#play');
    await page.waitForSelector('#play:has-text("Replay")', { timeout: 60_000 });
    assert.match(await clock(), /100 %$/);
    const blue = await page.evaluate(() => {
        const c = document.querySelector('#chart-throughput');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - 0x25) < 24 && Math.abs(d[i + 1] - 0x63) < 24 && Math.abs(d[i + 2] - 0xeb) < 24) n++;
        return n;
    });
    assert.ok(blue > 100, `throughput drawn (${blue} px)`);
    assert.deepEqual(problems, []);
    await page.close();
});

test('reduced motion: tokens jump instead of gliding, the rest still updates', async () => {
    const { page, problems } = await openPage(env.browser, env.base, '?size=1m', { reducedMotion: 'reduce' });
    await page.keyboard.press('ArrowRight');
    await page.waitForSelector('#a-pipeline .token');
    const duration = await page.$eval('#a-pipeline .token', (t) => getComputedStyle(t).transitionDuration);
    assert.equal(duration, '0s');
    await page.click('#play');
    await page.waitForTimeout(400);
    await page.click('#play');
    assert.notEqual(await page.textContent('#sim-clock'), '0.0 µs · 0 %');
    assert.deepEqual(problems, []);
    await page.close();
});

test('A/B: the compare switch and B controls keep b. keys in the URL, and a reload restores them', async () => {
    const { page, problems } = await openPage(env.browser, env.base, '?numjobs=20&size=4m');
    await page.check('#ab-toggle');
    await page.waitForFunction(() => location.search.includes('b.packed=8'));
    assert.ok(await page.$('#b-pipeline'));
    await page.fill('#b-ctl-packed', '4');
    await page.press('#b-ctl-packed', 'Enter');
    await page.waitForFunction(() => location.search.includes('b.packed=4'));
    await page.reload();
    await page.waitForSelector('#b-pipeline');
    assert.equal(await page.inputValue('#b-ctl-packed'), '4');
    assert.equal(await page.$('.notice'), null, 'the A/B link loads without complaint');
    // Both run on the same clock; the table compares them.
    await page.selectOption('#speed', '8');
    await page.click('#play');
    await page.waitForSelector('#play:has-text("Replay")', { timeout: 60_000 });
    const change = await page.textContent('#ab-table tr[data-metric=mib-s] td.change');
    assert.match(change, /^\+\d/, `B (packed=4) is faster than A (packed=0): ${change}`);
    await page.uncheck('#ab-toggle');
    await page.waitForFunction(() => !location.search.includes('b.'));
    assert.equal(await page.$('#b-pipeline'), null);
    assert.deepEqual(problems, []);
    await page.close();
});

test('frame time at normal speed (printed, not asserted)', async (t) => {
    const { page, problems } = await openPage(env.browser, env.base);
    await page.click('#play');
    await page.waitForTimeout(4000);
    await page.click('#play');
    const s = await frameStats(page);
    t.diagnostic(`default scenario at 1 ms/s: ${JSON.stringify(s)}`);
    console.log(`# frame time, default scenario at 1 ms/s: avg ${s.avg_ms} ms, p50 ${s.p50_ms}, p95 ${s.p95_ms}, max ${s.max_ms} over ${s.frames} frames`);
    assert.ok(s.frames > 0);
    assert.deepEqual(problems, []);
    await page.close();
});

// A real mouse click on a request token follows the request (issue "In front of a class":
// the mouse used to select the token's column, since the column under the pointer took the
// panel, and a token that moved between the button's down and up sent the click to the view).
// The click is the mouse's own (`page.mouse.click` at the token's box centre: move, down, up),
// paused and playing, on A and B, on a token of every stage that has one.
for (const side of ['a', 'b']) {
    for (const playing of [false, true]) {
        test(`a mouse click on a token of ${side.toUpperCase()} follows its request (${playing ? 'playing' : 'paused'})`, async () => {
            const { page, problems } = await openPage(env.browser, env.base, '?numjobs=20&packed=8&b.packed=0');
            await page.selectOption('#speed', '1'); // 10 µs/s: tokens move, slowly enough to aim at
            await page.click('#play');
            await page.waitForFunction((s) => document.querySelectorAll(`#${s}-pipeline .token:not(.done)`).length >= 3, side, { timeout: 30_000 });
            if (!playing) {
                await page.click('#play');
                await page.waitForSelector('#play:has-text("Play")');
                await page.waitForTimeout(400); // the glide ends
            }
            await page.evaluate((s) => document.querySelector(`#${s}-pipeline`).scrollIntoView({ block: 'center' }), side);
            // One token per stage on screen (playing: the stage may have moved on; the click follows
            // whichever request it hits, and that one must be the one followed). Playing, every
            // token on screen may have set off between the aim and the click (early in a run B's
            // are all in one stage): then the tokens are looked for again, a few rounds at most.
            let followed = 0;
            let current = null;
            for (let round = 0; round < 6 && followed === 0; round++) {
                if (round > 0) await page.waitForTimeout(250);
                const stages = await page.$$eval(`#${side}-pipeline .token:not(.done)`, (ts) => [...new Set(ts.map((t) => t.dataset.stage))]);
                assert.ok(stages.length >= 1);
                for (const stage of stages) {
                    const token = await page.$(`#${side}-pipeline .token:not(.done)[data-stage="${stage}"]`);
                    if (!token) continue;
                    const box = await token.boundingBox();
                    if (!box) continue;
                    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
                    // The request under the pointer when the button goes down.
                    const id = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('.token')?.dataset.req ?? null, [x, y]);
                    // A click on the followed request lets it go: aim at another one.
                    if (id === current) continue;
                    await page.mouse.click(x, y);
                    if (id === null) continue; // moved away before the click: nothing to follow
                    current = id;
                    await page.waitForSelector(`#${side}-pipeline .token.selected[data-req="${id}"]`, { timeout: 5_000 });
                    await page.waitForSelector('#request-life', { timeout: 5_000 });
                    // The pointer still rests on the token's column: the panel is the request's, not the column's.
                    assert.ok(await page.$('#request-life'), `${stage}: the request's life is shown`);
                    assert.equal(await page.$(`#${side === 'a' ? 'b' : 'a'}-pipeline .token.selected`), null, 'one side follows');
                    followed += 1;
                }
            }
            assert.ok(followed >= 1, 'a token was clicked and followed');
            assert.deepEqual(problems, []);
            await page.close();
        });
    }
}

// The keyboard follows a request too: one token is in the Tab order, the arrow keys move
// between tokens (not stepping the clock), Enter follows the focused one.
test('the keyboard follows a request: a token takes the focus, arrows move it, Enter follows', async () => {
    const { page, problems } = await openPage(env.browser, env.base, '?numjobs=20&packed=8&b.packed=0');
    await page.selectOption('#speed', '1');
    await page.click('#play');
    await page.waitForFunction(() => document.querySelectorAll('#a-pipeline .token').length >= 3, null, { timeout: 30_000 });
    await page.click('#play');
    await page.waitForSelector('#play:has-text("Play")');
    assert.equal(await page.$$eval('#a-pipeline .token[tabindex="0"]', (t) => t.length), 1, 'one token in the Tab order');
    await page.focus('#a-pipeline .token[tabindex="0"]');
    const clock = await page.getAttribute('#sim-clock', 'data-ns');
    await page.keyboard.press('ArrowRight');
    const id = await page.evaluate(() => document.activeElement?.closest('.token')?.dataset.req ?? null);
    assert.ok(id !== null, 'the arrow moved the focus to another token');
    assert.equal(await page.getAttribute('#sim-clock', 'data-ns'), clock, 'the arrow did not step the clock');
    await page.keyboard.press('Enter');
    await page.waitForSelector(`#a-pipeline .token.selected[data-req="${id}"]`, { timeout: 5_000 });
    await page.waitForSelector('#request-life', { timeout: 5_000 });
    assert.equal(await page.getAttribute(`#a-pipeline .token[data-req="${id}"]`, 'tabindex'), '0', 'the followed token keeps the Tab stop');
    // After a mouse click on a token, space still plays.
    const box = await (await page.$('#a-pipeline .token:not(.selected)')).boundingBox();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.keyboard.press(' ');
    await page.waitForSelector('#play:has-text("Pause")', { timeout: 5_000 });
    assert.deepEqual(problems, []);
    await page.close();
});

// Run goes to the end untraced (issue 32: recording every request's stages cost the page more
// than the run). Stopped on its way, the view shows where the run stands; a request that began
// untraced says so instead of showing half a life, and one that entered the pipeline since
// shows its whole life, from its submission.
test('a Run stopped on its way: a request begun untraced says so, one entered since shows its whole life', async () => {
    const { page, problems } = await openPage(env.browser, env.base, '?rw=randread&bs=4k&size=8g&numjobs=4&ioengine=libaio&iodepth=8');
    await page.selectOption('#speed', '4'); // 1 ms/s once it plays on: requests enter slowly enough to aim at
    await page.click('#run');
    await page.waitForSelector('#play[aria-pressed="true"]');
    await page.waitForTimeout(1500);
    await page.click('#play');
    await page.waitForSelector('#play[aria-pressed="false"]');
    const label = await page.textContent('.progress-label');
    assert.match(label, /simulated, paused/, `the run stopped on its way: ${label}`);
    await page.evaluate(() => document.querySelector('#a-pipeline').scrollIntoView({ block: 'center' }));
    /** Clicks a token of A not done whose request id passes `pick`; its id, or null. */
    const follow = async (pick) => {
        for (const token of await page.$$('#a-pipeline .token:not(.done)')) {
            const box = await token.boundingBox();
            if (!box) continue;
            const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
            const id = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('.token')?.dataset.req ?? null, [x, y]);
            if (id === null || !pick(Number(id))) continue;
            await page.mouse.click(x, y);
            await page.waitForSelector(`#a-pipeline .token.selected[data-req="${id}"]`, { timeout: 5_000 });
            return Number(id);
        }
        return null;
    };
    const old = await follow(() => true);
    assert.notEqual(old, null, 'a request in the pipeline to follow');
    assert.match(await page.textContent('.watch-info'), /Its trace is not kept: it began too long ago, or while Run went to the end untraced/);
    assert.equal(await page.$('#request-life'), null, 'no half life');
    const oldest = Math.max(...await page.$$eval('#a-pipeline .token', (ts) => ts.map((t) => Number(t.dataset.req))));
    // Play on at 1 ms/s until requests enter that began traced, and follow one.
    await page.click('#play');
    await page.waitForFunction((o) => [...document.querySelectorAll('#a-pipeline .token:not(.done)')].some((t) => Number(t.dataset.req) > o), oldest, { timeout: 30_000 });
    await page.click('#play');
    await page.waitForSelector('#play[aria-pressed="false"]');
    await page.waitForTimeout(400); // the glide ends
    const fresh = await follow((id) => id > oldest);
    assert.notEqual(fresh, null, 'a request entered since');
    await page.waitForSelector('#request-life');
    const stages = await page.$$eval('#request-life tbody tr', (rs) => rs.map((r) => r.dataset.stage));
    assert.equal(stages[0], 'submit', `its whole life, from its submission: ${stages}`);
    assert.deepEqual(problems, []);
    await page.close();
});
