// Every screen (issue 12, points 5, 7, 9): the phone layout (390x844: no sideways scroll, no
// text under 11 CSS px, no keyboard hints on touch), 1280x720 with both pipelines of an A/B
// comparison in view, presentation mode, tooltips that stay put over a column's inner boxes,
// and the inconsistencies the issue lists. Screenshots go to target/screenshots/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, screenshotPath } from './harness.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const AB = '?numjobs=20&packed=8&b.packed=0';

async function playFor(page, ms, speed = '4') {
    await page.selectOption('#speed', speed);
    await page.click('#play');
    await page.waitForTimeout(ms);
    await page.click('#play');
}

/** Texts on screen smaller than `min` CSS px: HTML by computed size, SVG text by its size
 * times the SVG's scale on screen. Text inside a pannable box counts at its drawn size. */
function smallTexts(min) {
    const bad = [];
    const visible = (el) => {
        const r = el.getBoundingClientRect();
        const cs = getComputedStyle(el);
        return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden' && cs.display !== 'none';
    };
    for (const t of document.querySelectorAll('svg text')) {
        if (!t.textContent.trim() || !visible(t)) continue;
        const scale = t.ownerSVGElement.getScreenCTM().a;
        const px = parseFloat(getComputedStyle(t).fontSize) * scale;
        if (px < min - 0.05) bad.push(`svg "${t.textContent.trim()}" ${px.toFixed(1)}px`);
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!n.textContent.trim() || !el || el.closest('svg') || el.closest('details:not([open])') && !el.closest('summary')) continue;
        if (!visible(el)) continue;
        const px = parseFloat(getComputedStyle(el).fontSize);
        if (px < min - 0.05) bad.push(`${el.tagName.toLowerCase()} "${n.textContent.trim().slice(0, 30)}" ${px}px`);
    }
    return bad;
}

test('phone 390x844: no sideways scroll, text of at least 11 px, no keyboard hints', async () => {
    const { page, problems } = await openPage(env.browser, env.base, AB, {
        viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2,
    });
    await playFor(page, 1500);
    const widths = await page.evaluate(() => ({ page: document.scrollingElement.scrollWidth, view: innerWidth }));
    assert.ok(widths.page <= widths.view, `the page scrolls sideways: ${widths.page} > ${widths.view}`);
    const bad = await page.evaluate(smallTexts, 11);
    assert.deepEqual(bad.slice(0, 12), [], `${bad.length} texts under 11 px`);
    assert.equal(await page.isVisible('.time-controls .keys'), false, 'keyboard hints on a touch screen');
    // The pipeline pans inside its own box.
    const pans = await page.evaluate(() => {
        const f = document.querySelector('#a-pipeline');
        return f.scrollWidth > f.clientWidth && getComputedStyle(f).overflowX === 'auto';
    });
    assert.ok(pans, 'the pipeline pans in its box');
    // A tap on a column explains it next to the finger.
    await page.evaluate(() => document.querySelector('#a-pipeline').scrollIntoView({ block: 'start' }));
    const box = await (await page.$('#a-pipeline svg')).boundingBox();
    await page.touchscreen.tap(box.x + 120, box.y + 60);
    const tap = await page.evaluate(([px, py]) => {
        const t = document.querySelector('#a-tip');
        if (!t) return null;
        const r = t.getBoundingClientRect();
        return { layer: t.dataset.layer, dy: r.top - py, dx: r.left - px, right: r.right, vw: innerWidth };
    }, [box.x + 120, box.y + 60]);
    assert.ok(tap && tap.layer === 'Jobs' && Math.abs(tap.dy - 14) < 2 && Math.abs(tap.dx - 16) < 2, JSON.stringify(tap));
    await (await page.$('#watch')).scrollIntoViewIfNeeded();
    await page.screenshot({ path: await screenshotPath('phone-390x844.png') });
    await page.screenshot({ path: await screenshotPath('phone-390x844-full.png'), fullPage: true });
    assert.deepEqual(problems, []);
});

/** Both pipelines' drawings lie inside the viewport once the first is scrolled to the top. */
async function bothInView(page) {
    await page.evaluate(() => document.querySelector('#a-pipeline').scrollIntoView({ block: 'start' }));
    return page.evaluate(() => {
        const r = (s) => document.querySelector(s).getBoundingClientRect();
        const [a, b] = [r('#a-pipeline svg'), r('#b-pipeline svg')];
        return { ok: a.top >= 0 && b.bottom <= innerHeight + 0.5, a: [a.top, a.bottom], b: [b.top, b.bottom], h: innerHeight };
    });
}

test('1280x720: both pipelines of a comparison in view', async () => {
    const { page, problems } = await openPage(env.browser, env.base, AB, { viewport: { width: 1280, height: 720 } });
    await playFor(page, 1200);
    const v = await bothInView(page);
    assert.ok(v.ok, `A ${v.a} B ${v.b} in ${v.h}`);
    await page.screenshot({ path: await screenshotPath('ab-1280x720.png') });
    assert.deepEqual(problems, []);
});

test('presentation mode: the watch view alone, large type, both pipelines in view', async () => {
    const { page, problems } = await openPage(env.browser, env.base, AB, { viewport: { width: 1280, height: 720 } });
    await page.click('#present');
    assert.ok(await page.evaluate(() => document.body.classList.contains('present')));
    assert.equal(await page.isVisible('.scenario'), false, 'the form is hidden');
    await playFor(page, 1200);
    // The time controls and both pipelines at once.
    await page.evaluate(() => document.querySelector('#watch').scrollIntoView({ block: 'start' }));
    const v = await page.evaluate(() => {
        const r = (s) => document.querySelector(s).getBoundingClientRect();
        return { ok: r('#play').top >= 0 && r('#b-strip').bottom <= innerHeight + 0.5, play: r('#play').top, b: r('#b-strip').bottom };
    });
    assert.ok(v.ok, JSON.stringify(v));
    // A link's Watch in Present draws its pipelines compact, for the projector: text of at least 20 px.
    const m = await page.evaluate(projector);
    console.log(`present (a link's Watch) 1280x720: pipeline text >= ${m.min.toFixed(1)} px (titles ${m.title.toFixed(1)}), readouts ${m.readout} px`);
    assert.ok(m.min >= 20 && m.readout > m.min, JSON.stringify(m));
    const size = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('#play')).fontSize));
    assert.ok(size >= 20, `large type: ${size}`);
    await page.screenshot({ path: await screenshotPath('present-1280x720.png') });
    await page.click('#present');
    assert.equal(await page.evaluate(() => document.body.classList.contains('present')), false);
    assert.deepEqual(problems, []);
});

test('a column explains itself next to the pointer, without flicker over its inner boxes', async () => {
    const { page, problems } = await openPage(env.browser, env.base, AB);
    await playFor(page, 800);
    await page.evaluate(() => document.querySelector('#a-pipeline').scrollIntoView({ block: 'start' }));
    const svg = await (await page.$('#a-pipeline svg')).boundingBox();
    const k = svg.width / 1200;
    // Across blk-mq (x 186..356): the frame, the tag gauge, both queue boxes, their labels.
    const seen = [];
    let flickers = 0;
    await page.evaluate(() => {
        window.__tipGone = 0;
        new MutationObserver((ms) => { for (const m of ms) for (const n of m.removedNodes) if (n.id === 'a-tip') window.__tipGone++; })
            .observe(document.querySelector('#a-pipeline'), { childList: true });
    });
    for (const [x, y] of [[200, 20], [210, 70], [240, 110], [300, 150], [220, 250], [330, 300], [250, 355], [190, 200]]) {
        await page.mouse.move(svg.x + x * k, svg.y + y * k, { steps: 3 });
        const tip = await page.evaluate(() => document.querySelector('#a-tip')?.dataset.layer ?? null);
        // Next to the pointer: its top edge 14 px under it, its side 16 px from it.
        const near = await page.evaluate(([px, py]) => {
            const r = document.querySelector('#a-tip').getBoundingClientRect();
            return Math.abs(r.top - (py + 14)) < 2 && (Math.abs(r.left - (px + 16)) < 2 || Math.abs(r.right - (px - 16)) < 20);
        }, [svg.x + x * k, svg.y + y * k]);
        assert.ok(near, `the tooltip is not next to the pointer at ${x},${y}`);
        const title = await page.textContent('#explain-title');
        seen.push(`${tip}|${title}`);
    }
    flickers = await page.evaluate(() => window.__tipGone);
    assert.equal(flickers, 0, 'the tooltip left while the pointer stayed in the column');
    assert.ok(seen.every((s) => s === seen[0]), seen.join('\n'));
    assert.match(seen[0], /^BlkMq\|block layer queue/);
    const tipText = await page.textContent('#a-tip');
    assert.match(tipText, /block layer queue \(blk-mq/, 'plain words first, kernel name second');
    // Tapping on a touch screen shows it too (click = tap).
    await page.mouse.move(svg.x + 1100 * k, svg.y + 200 * k);
    assert.equal(await page.evaluate(() => document.querySelector('#a-tip')?.dataset.layer), 'Card');
    // The glossary is on the page and holds the kernel names.
    const gloss = await page.textContent('#glossary');
    for (const term of ['BLK_STS_RESOURCE', 'hctx->dispatch', 'ADMA3 chain', 'DAT0', 'psync', 'CMD18']) {
        assert.ok(gloss.includes(term), term);
    }
    assert.deepEqual(problems, []);
});

test('numbers agree: A/B table before data, CQE grid, the controller, the mmc_test headline, the form', async () => {
    // A/B before both sides have data: "—", never 0.00 and "-100 %".
    let { page, problems } = await openPage(env.browser, env.base, AB);
    const cells = await page.$$eval('#ab-table tbody td', (tds) => tds.map((t) => t.textContent));
    assert.ok(cells.length > 0 && cells.every((c) => c === '—'), cells.join(' '));
    await playFor(page, 1000);
    const after = await page.$$eval('#ab-table tbody td:not(.change)', (tds) => tds.map((t) => t.textContent));
    assert.ok(!after.includes('—'), after.join(' '));
    assert.ok(after.some((c) => /µs|ms/.test(c)), 'latencies carry their unit like the results');
    assert.deepEqual(problems, []);
    await page.close();

    // CQE: as many cells lit as tasks held.
    ({ page, problems } = await openPage(env.browser, env.base, '?mmc_path=cqe&numjobs=40&size=4m'));
    await playFor(page, 1500);
    const cqe = await page.evaluate(() => {
        const label = [...document.querySelectorAll('#a-pipeline text')].find((t) => / held$/.test(t.textContent)).textContent;
        const lit = document.querySelectorAll('#a-pipeline rect.slot.read, #a-pipeline rect.slot.write').length;
        return { held: Number(label.match(/(\d+) held/)[1]), lit };
    });
    assert.equal(cqe.lit, cqe.held, JSON.stringify(cqe));
    assert.deepEqual(problems, []);
    await page.close();

    // u300: the controller is the MMCI; mmc_test compares like with like and says it overrides.
    ({ page, problems } = await openPage(env.browser, env.base, '?platform=u300-mmci-2011&mmc_test=38&size=4m'));
    const svgText = await page.textContent('#a-pipeline svg');
    assert.ok(svgText.includes('MMCI') && !svgText.includes('SDHCI'), svgText);
    await page.click('#advanced summary');
    for (const n of ['sync', 'mmc_test', 'cache', 'runtime', 'time_based', 'rwmixread', 'fsync', 'inject_error', 'prioclass', 'prio']) {
        assert.ok(await page.isVisible(`#ctl-${n}`), `no control for ${n}`);
    }
    assert.equal(await page.inputValue('#ctl-mmc_test'), '38');
    assert.match(await page.textContent('#note-nonblocking'), /no effect/);
    await page.click('#run');
    await page.waitForSelector('[data-metric="measured"] [data-metric="error"]', { timeout: 60_000 });
    const unit = await page.textContent('[data-metric="total-mib-s"] .unit');
    assert.match(unit, /transfer sizes/);
    const err = await page.textContent('[data-metric="measured"] [data-metric="error"]');
    assert.match(err, /KiB\/s/);
    assert.deepEqual(problems, []);
});

/** The projector view's measures: the pipelines' text on screen (font size times the SVG's
 * scale), the readouts', and every visible element whose box leaves the viewport. */
function projector() {
    const visible = (el) => {
        const r = el.getBoundingClientRect();
        const cs = getComputedStyle(el);
        return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden' && cs.display !== 'none';
    };
    const svgPx = [...document.querySelectorAll('.pipeline svg text')]
        .filter((t) => t.textContent.trim() && visible(t))
        .map((t) => parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getScreenCTM().a);
    const readouts = [...document.querySelectorAll('.readout')].map((r) => parseFloat(getComputedStyle(r).fontSize));
    const outside = [];
    for (const el of document.body.querySelectorAll('*')) {
        if (el.closest('svg title, svg defs, .tip') || !visible(el)) continue;
        const r = el.getBoundingClientRect();
        if (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) {
            outside.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${[...el.classList].join('.')} ${r.left.toFixed(0)},${r.top.toFixed(0)}-${r.right.toFixed(0)},${r.bottom.toFixed(0)}`);
        }
    }
    const titles = [...document.querySelectorAll('.pipeline svg text.title')].filter(visible)
        .map((t) => parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getScreenCTM().a);
    return { min: Math.min(...svgPx), n: svgPx.length, title: Math.min(...titles), readout: Math.min(...readouts), outside };
}

// The projector view (issue "In front of a class"): Present on the landing and on every step of a
// tour keeps the pipeline pair, the step's text and its prediction on one 1280x720 screen, the
// pipelines' text at least 20 CSS px and the readouts larger.
test('present at 1280x720: the landing and every tour step on one screen, pipeline text of at least 20 px', async () => {
    const { page, problems } = await openPage(env.browser, env.base, '', { viewport: { width: 1280, height: 720 } });
    await page.click('#present');
    await page.waitForTimeout(1500); // the landing plays
    let m = await page.evaluate(projector);
    console.log(`present landing 1280x720: pipeline text >= ${m.min.toFixed(1)} px (titles ${m.title.toFixed(1)}), readouts ${m.readout} px`);
    assert.ok(m.n > 10, `${m.n} texts`);
    assert.ok(m.min >= 20, `pipeline text ${m.min.toFixed(1)} px`);
    assert.ok(m.readout > m.min, `readouts ${m.readout} px larger than the pipeline text`);
    assert.deepEqual(m.outside, [], 'every box within the viewport');
    for (const sel of ['.lesson-text', '#start-tour', '#a-pipeline svg', '#b-pipeline svg']) {
        assert.ok(await page.isVisible(sel), sel);
    }
    await page.screenshot({ path: await screenshotPath('present-landing-1280x720.png') });
    // The tour: every step, its text and (at the prediction) its choices on screen.
    await page.click('#start-tour');
    await page.waitForSelector('#tour[data-step="1"]');
    const n = Number((await page.textContent('.tour-head')).match(/step \d+ of (\d+)/)[1]);
    for (let k = 1; k <= n; k++) {
        await page.waitForSelector(`#tour[data-step="${k}"]`);
        m = await page.evaluate(projector);
        assert.ok(m.min >= 20, `step ${k}: pipeline text ${m.min.toFixed(1)} px`);
        assert.ok(m.readout > m.min, `step ${k}: readouts ${m.readout} px`);
        assert.deepEqual(m.outside, [], `step ${k}: every box within the viewport`);
        assert.ok(await page.isVisible('#tour-see'), `step ${k}: the step's text`);
        assert.ok((await page.textContent('#tour-see')).length > 40);
        if (await page.$('.predict')) {
            assert.ok(await page.isVisible('.predict[data-choice="0"]'), 'the prediction');
            await page.screenshot({ path: await screenshotPath('present-tour-predict-1280x720.png') });
        }
        if (k === 3) await page.screenshot({ path: await screenshotPath('present-tour-step3-1280x720.png') });
        if (k < n) await page.click('#tour-next');
    }
    console.log(`present tour 1280x720: pipeline text >= ${m.min.toFixed(1)} px (titles ${m.title.toFixed(1)}), readouts ${m.readout} px`);
    assert.deepEqual(problems, []);
    await page.close();
});

// Lessons whose readouts also say who issued the requests (two lines at 1280x720): B's second
// line and its bus strip stay on the projector's screen (the pipelines give the line back).
test('present at 1280x720: lessons 4 and 7 keep both readouts and strips on one screen', async () => {
    for (const tour of ['unisoc-hsq-2023', 'io-schedulers']) {
        const { page, problems } = await openPage(env.browser, env.base, `?tour=${tour}&step=4`, { viewport: { width: 1280, height: 720 } });
        await page.waitForSelector('#tour[data-step="4"]');
        await page.waitForSelector('.side.b .readout .issued');
        await page.click('#present');
        await page.waitForTimeout(500);
        const m = await page.evaluate(projector);
        assert.deepEqual(m.outside, [], `${tour}: every box within the viewport`);
        const bottom = await page.evaluate(() => Math.max(...[...document.querySelectorAll('.side.b .readout, .side.b canvas')]
            .map((e) => e.getBoundingClientRect().bottom)));
        assert.ok(bottom <= 720.5, `${tour}: B's readout and strip end at ${bottom}`);
        if (tour === 'unisoc-hsq-2023') await page.screenshot({ path: await screenshotPath('present-lesson4-1280x720.png') });
        assert.deepEqual(problems, []);
        await page.close();
    }
});

test('present at 1920x1080: the landing on one screen, its pipeline text larger than at 1280x720', async () => {
    const { page, problems } = await openPage(env.browser, env.base, '', { viewport: { width: 1920, height: 1080 } });
    await page.click('#present');
    await page.waitForTimeout(1000);
    const m = await page.evaluate(projector);
    console.log(`present landing 1920x1080: pipeline text >= ${m.min.toFixed(1)} px (titles ${m.title.toFixed(1)}), readouts ${m.readout} px`);
    assert.ok(m.min >= 28, `pipeline text ${m.min.toFixed(1)} px`);
    assert.ok(m.readout > m.min, `readouts ${m.readout} px`);
    assert.deepEqual(m.outside, [], 'every box within the viewport');
    await page.screenshot({ path: await screenshotPath('present-landing-1920x1080.png') });
    assert.deepEqual(problems, []);
    await page.close();
});

test('1366x768: the Sweep as charts with axes, a legend and log axes, and a styled table', async () => {
    const { page, problems } = await openPage(env.browser, env.base, '?numjobs=8&size=2m', { viewport: { width: 1366, height: 768 } }, '#run');
    await page.click('#sweep > summary');
    await page.fill('#sweep-1', 'numjobs=1,2,4,8,16,32');
    await page.press('#sweep-1', 'Tab');
    await page.fill('#sweep-2', 'packed=0,8');
    await page.press('#sweep-2', 'Tab');
    await page.click('#sweep-run');
    await page.waitForFunction(() => document.querySelectorAll('#sweep-table tbody tr').length === 12, null, { timeout: 300_000 });
    const charts = await page.$$eval('.sweep-chart', (fs) => fs.map((f) => ({ series: f.dataset.series, legend: f.dataset.legend, xLog: f.dataset.xLog })));
    for (const c of charts) {
        assert.deepEqual(c, { series: '2', legend: 'packed=0|packed=8', xLog: 'true' }, 'two lines with a legend over a log axis of 1..32 jobs');
    }
    // Both lines are drawn: each colour is on the throughput canvas.
    const colours = await page.evaluate(() => {
        const c = document.querySelector('.sweep-chart canvas');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let a = 0; let b = 0;
        for (let i = 0; i < d.length; i += 4) {
            if (d[i] === 0x25 && d[i + 1] === 0x63 && d[i + 2] === 0xeb) a++;
            if (d[i] === 0xea && d[i + 1] === 0x58 && d[i + 2] === 0x0c) b++;
        }
        return { a, b };
    });
    assert.ok(colours.a > 50 && colours.b > 50, JSON.stringify(colours));
    await page.evaluate(() => document.querySelector('#sweep').scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: await screenshotPath('sweep-1366x768.png') });
    assert.deepEqual(problems, []);
    await page.close();
});

test('1366x768: the Lab with the Board and an A/B comparison', async () => {
    const { page, problems } = await openPage(env.browser, env.base, AB, { viewport: { width: 1366, height: 768 } }, '#run');
    await page.click('#board > summary');
    await page.click('#run');
    await page.waitForFunction(() => document.querySelector('#results [data-metric=total-mib-s] .value')
        && document.querySelector('[role=progressbar]')?.getAttribute('aria-valuenow') === '100', null, { timeout: 120_000 });
    await page.evaluate(() => document.querySelector('#lab').scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: await screenshotPath('lab-board-ab-1366x768.png') });
    assert.deepEqual(problems, []);
    await page.close();
});
