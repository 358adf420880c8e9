// The engineer's panels: the Lab at 1366x768 (Run keeps the Lab and
// its results in view, every table inside its column, fio's text and the time per stage, A's
// and B's exports, chart pictures with a title and a legend), its form (stale errors cleared,
// a pasted job file keeping the platform and B), and the phone (390x844: Board not widening
// the page, tap targets of 44 px, A and B panned together), a job file that would not read back
// refused as the CLI refuses it, and a link's NUL shown escaped. Screenshots go to
// target/screenshots/ (docs/ with `make screenshots`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { start, root, screenshotPath } from './harness.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const AB = '?numjobs=20&packed=8&b.packed=0';

/** A page in its own context (downloads accepted) at `viewport`, recording problems. */
async function open(query, viewport, extra = {}) {
    const context = await env.browser.newContext({ viewport, acceptDownloads: true, ...extra });
    const page = await context.newPage();
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(env.base + query);
    await page.waitForSelector('#run', { timeout: 30_000 });
    return { page, problems, context };
}

/** Elements under `inner` whose right edge passes the right edge of their `outer` ancestor. */
function spills([inner, outer]) {
    const bad = [];
    for (const el of document.querySelectorAll(inner)) {
        const box = el.closest(outer);
        if (!box || !el.getClientRects().length) continue;
        const r = el.getBoundingClientRect().right;
        const edge = box.getBoundingClientRect().right;
        if (r > edge + 1) bad.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className} ${r.toFixed(0)} > ${edge.toFixed(0)}`);
    }
    return bad;
}

/** Every download `selector` starts within `ms`, as { name, body }. */
async function downloads(page, selector, count) {
    const got = [];
    const done = new Promise((resolve) => {
        page.on('download', async (d) => {
            got.push({ name: d.suggestedFilename(), body: await readFile(await d.path()) });
            if (got.length === count) resolve();
        });
    });
    await page.click(selector);
    await done;
    page.removeAllListeners('download');
    return got.sort((a, b) => a.name.localeCompare(b.name));
}

test('the Lab at 1366x768: Run keeps it in view, tables in their columns, fio text, A and B exports', async () => {
    const { page, problems, context } = await open(AB, { width: 1366, height: 768 });
    await page.click('#board > summary');
    await page.waitForSelector('#board table');
    assert.deepEqual(await page.evaluate(spills, ['#board *', '.panel.scenario']), [], 'the Board spills out of its column');
    // Run from the bottom of the form: the page stays, the results are in view beside it.
    await page.evaluate(() => document.querySelector('#run').scrollIntoView({ block: 'center' }));
    const y0 = await page.evaluate(() => scrollY);
    await page.click('#run');
    await page.waitForFunction(() => document.querySelector('#results [data-metric=total-mib-s] .value')
        && document.querySelector('[role=progressbar]')?.getAttribute('aria-valuenow') === '100', null, { timeout: 120_000 });
    const view = await page.evaluate(() => {
        const r = document.querySelector('#results').getBoundingClientRect();
        const run = document.querySelector('#run').getBoundingClientRect();
        return { y: scrollY, results: [r.top, r.bottom], run: [run.top, run.bottom], h: innerHeight };
    });
    console.log(`Run at 1366x768: scrollY ${y0} -> ${view.y}, results top ${view.results[0].toFixed(0)} px, Run at ${view.run[0].toFixed(0)} px`);
    // The page may shift a little as the view above fills in; it never jumps to the pipeline.
    assert.ok(Math.abs(view.y - y0) < 400, `Run scrolled the page: ${y0} -> ${view.y}`);
    assert.ok(view.results[0] >= 0 && view.results[0] < view.h - 100 && view.run[1] <= view.h, JSON.stringify(view));
    assert.deepEqual(await page.evaluate(spills, ['#results table, #results th, #results td', '.result-side']), [], 'a results table spills');
    assert.deepEqual(await page.evaluate(spills, ['#results table', '.panel.output']), []);
    assert.match(await page.textContent('#bus-busy-defined'), /card's access time/);
    // fio's text of the run is the CLI's for the same scenario, and the stages add up.
    await page.click('#a-detail > summary');
    const text = await page.textContent('#a-fio-normal');
    const cli = execFileSync('cargo', ['run', '-q', '-p', 'mmcsim-cli', '--bin', 'mmcsim', '--', '--numjobs=20', '--packed=8'],
        { cwd: root, encoding: 'utf8' });
    assert.equal(text, cli, "the page's fio text is the CLI's");
    assert.ok((await page.locator('#a-detail .detail-stages tr[data-stage]').count()) >= 8);
    assert.match(await page.textContent('#a-detail .detail-spread'), /min.*mean.*max.*std dev/s);
    await page.screenshot({ path: await screenshotPath('lab-ab-1366x768.png') });
    // A comparison's fio JSON: A's and B's; its chart pictures carry a header over the chart.
    const json = await downloads(page, '#export-json', 2);
    assert.deepEqual(json.map((d) => d.name.match(/-(A|B)\.json$/)?.[1]), ['A', 'B']);
    assert.notEqual(json[0].body.toString(), json[1].body.toString());
    const pngs = [];
    page.on('download', async (d) => pngs.push({ name: d.suggestedFilename(), body: await readFile(await d.path()) }));
    await page.click('#export-png');
    await page.waitForFunction(() => /^Saved .*\.png/.test(document.querySelector('.exports-status')?.textContent ?? ''));
    await new Promise((r) => setTimeout(r, 1000));
    const chart = pngs.find((p) => p.name.includes('throughput-chart'));
    assert.ok(chart, pngs.map((p) => p.name).join(', '));
    const height = chart.body.readUInt32BE(20);
    const canvas = Number(await page.getAttribute('#throughput-chart', 'height'));
    assert.ok(height >= canvas + 60, `title and legend over the chart: ${height} px for a ${canvas} px chart`);
    assert.deepEqual(problems, []);
    await context.close();
});

test('the form: errors leave with the bad text; a pasted job file keeps the platform and B', async () => {
    const { page, problems, context } = await open('?platform=unisoc-hsq-2023&rw=randwrite&numjobs=8&b.hsq_depth=2',
        { width: 1366, height: 768 });
    await page.click('#board > summary');
    await page.fill('#board-bus_mode', 'hs999');
    await page.press('#board-bus_mode', 'Tab');
    await page.waitForSelector('[data-param=bus_mode] .field-error');
    await page.fill('#board-bus_mode', '');
    await page.press('#board-bus_mode', 'Tab');
    await page.waitForFunction(() => !document.querySelector('[data-param=bus_mode] .field-error'));
    await page.fill('#board-bus_mode', 'hs999');
    await page.press('#board-bus_mode', 'Tab');
    await page.waitForSelector('[data-param=bus_mode] .field-error');
    await page.fill('#board-bus_mode', 'hs200');
    await page.press('#board-bus_mode', 'Tab');
    await page.waitForFunction(() => !document.querySelector('[data-param=bus_mode] .field-error'));
    await page.click('[data-param=bus_mode] .board-reset');
    // A fio job file (no platform in it): the workload changes, the platform and B stay.
    await page.click('.jobfile summary');
    await page.fill('#jobfile-text', '[w]\nrw=randread\nbs=8k\nnumjobs=4\nsize=2m\n');
    await page.click('#jobfile-load');
    await page.waitForFunction(() => location.search.includes('rw=randread'));
    const q = await page.evaluate(() => location.search);
    assert.ok(q.includes('platform=unisoc-hsq-2023') && q.includes('b.hsq_depth=2') && q.includes('bs=8k'), q);
    assert.deepEqual(problems, []);
    await context.close();
});

test('phone 390x844: the Board does not widen the page, tap targets of 44 px, A and B pan together', async () => {
    const { page, problems, context } = await open(AB, { width: 390, height: 844 }, { isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    await page.click('#board > summary');
    const width = await page.evaluate(() => document.scrollingElement.scrollWidth);
    assert.ok(width <= 390, `the page is ${width} px wide with the Board open`);
    const small = await page.evaluate(() => [...document.querySelectorAll('button, select, summary, input[type=text], .button')]
        .filter((el) => {
            const r = el.getBoundingClientRect();
            return r.width > 0 && r.height > 0 && !el.closest('details:not([open]) > :not(summary)') && getComputedStyle(el).visibility !== 'hidden';
        })
        .filter((el) => el.getBoundingClientRect().height < 44 - 0.5)
        .map((el) => `${el.tagName.toLowerCase()}#${el.id} "${el.textContent.trim().slice(0, 20)}" ${el.getBoundingClientRect().height.toFixed(0)}px`));
    assert.deepEqual(small.slice(0, 10), [], `${small.length} tap targets under 44 px`);
    await page.screenshot({ path: await screenshotPath('phone-board-390x844.png') });
    // Panning A pans B to the same place.
    await page.evaluate(() => document.querySelector('#a-pipeline').scrollIntoView({ block: 'start' }));
    await page.evaluate(() => { document.querySelector('#a-pipeline').scrollLeft = 500; });
    await page.waitForFunction(() => document.querySelector('#b-pipeline').scrollLeft === document.querySelector('#a-pipeline').scrollLeft);
    const pans = await page.evaluate(() => [document.querySelector('#a-pipeline').scrollLeft, document.querySelector('#b-pipeline').scrollLeft]);
    assert.ok(pans[0] > 0 && pans[0] === pans[1], `A and B panned ${pans}`);
    assert.deepEqual(problems, []);
    await context.close();
});

test('phone 390x844: the column a link or a step points at is panned into view, in A and B', async () => {
    const { page, problems, context } = await open(`${AB}&focus=card&t=2ms&paused=1`, { width: 390, height: 844 },
        { isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    await page.waitForSelector('#a-pipeline g.stage.focused[data-layer=Card]');
    await page.waitForFunction(() => document.querySelector('#a-pipeline').scrollLeft > 0);
    const v = await page.evaluate(() => {
        const f = document.querySelector('#a-pipeline').getBoundingClientRect();
        const c = document.querySelector('#a-pipeline g.stage[data-layer=Card]').getBoundingClientRect();
        return { box: [f.left, f.right], col: [c.left, c.right],
            a: document.querySelector('#a-pipeline').scrollLeft, b: document.querySelector('#b-pipeline').scrollLeft };
    });
    assert.ok(v.col[0] >= v.box[0] - 1 && v.col[1] <= v.box[1] + 1, `the Card column in view: ${JSON.stringify(v)}`);
    assert.equal(v.a, v.b, 'B panned with A');
    await page.evaluate(() => document.querySelector('#a-pipeline').scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: await screenshotPath('phone-focus-390x844.png') });
    assert.deepEqual(problems, []);
    await context.close();
});

test('a job name the job file cannot read back is refused, not saved; a NUL in a link is shown escaped', async () => {
    // `?name=$HOME;x`: fio's reader would expand $HOME and cut at ';' (mmcsim --write_jobfile=
    // refuses it the same way, from the engine's one writer).
    const { page, problems, context } = await open('?name=%24HOME%3Bx&tour=a%00b', { width: 1366, height: 768 });
    const notices = await page.$$eval('.notice', (n) => n.map((e) => e.textContent));
    const tour = notices.find((n) => n.includes('is not a tour'));
    assert.ok(tour, notices.join('\n'));
    assert.ok(tour.includes("'a\\x00b'") && !tour.includes('\u0000'), tour);
    await page.click('.jobfile summary');
    let downloaded = false;
    page.on('download', () => { downloaded = true; });
    await page.click('#jobfile-save');
    await page.waitForSelector('#jobfile-error');
    assert.equal(await page.textContent('#jobfile-error'),
        "Not saved: the line '[$HOME;x]' would not read back (in a fio job file ';' and '#' start a comment and '$' a variable, and nothing quotes them); accepted: job names and values without ';', '#' or '$'");
    assert.equal(downloaded, false, 'no file was saved');
    assert.deepEqual(problems, []);
    await context.close();
});
