// End-to-end test of the Board and Sweep panels (issue 9) in the release build in dist/: a board
// parameter from the link shows in its field, editing one changes the link, the command line and
// the run; a sweep fills its table and charts while the page keeps drawing frames (measured with
// requestAnimationFrame during the sweep and printed).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { start, frameStats, openPage, root, screenshotPath } from './harness.mjs';

let env;
let browser;
let base;

before(async () => {
    env = await start();
    ({ browser, base } = env);
});

after(async () => {
    await env?.close();
});

/** The page on `query`, ready when the Lab's Run is there. */
function openLab(query = '') {
    return openPage(browser, base, query, {}, '#run');
}

async function runAndRead(page) {
    await page.click('#run');
    // The run starts (its old results go), then ends with Run back and new results.
    await page.waitForFunction(() => document.querySelector('#run') && document.querySelector('[data-metric=total-mib-s] .value')
        && document.querySelector('[role=progressbar]')?.getAttribute('aria-valuenow') === '100', null, { timeout: 120_000 });
    return Number(await page.textContent('[data-metric=total-mib-s] .value'));
}

test('the board editor changes the run, the link and the command line', async () => {
    const { page, problems } = await openLab('?platform=unisoc-hsq-2023&rw=randread&size=64m&nand_read_us=120');
    await page.click('#board > summary');
    assert.equal(await page.inputValue('#board-nand_read_us'), '120', 'the link set the field');
    const slow = await runAndRead(page);
    // Back to the preset's value: the link and the command line drop it, the run is faster.
    await page.click('[data-param=nand_read_us] .board-reset');
    await page.waitForFunction(() => !location.search.includes('nand_read_us'));
    assert.ok(!(await page.textContent('#command-line')).includes('nand_read_us'));
    const fast = await runAndRead(page);
    assert.ok(fast > slow * 1.2, `a 60 us NAND read is faster than 120 us: ${fast} vs ${slow} MiB/s`);
    // A typed value goes into the link and the command line.
    await page.fill('#board-bus_mb_s', '200');
    await page.press('#board-bus_mb_s', 'Tab');
    await page.waitForFunction(() => location.search.includes('bus_mb_s=200'));
    assert.ok((await page.textContent('#command-line')).includes('--bus_mb_s=200'));
    // The bus mode is a field too: HS200 (single data rate) goes into the link.
    await page.click('[data-param=bus_mb_s] .board-reset');
    await page.fill('#board-bus_mode', 'hs200');
    await page.press('#board-bus_mode', 'Tab');
    await page.waitForFunction(() => location.search.includes('bus_mode=hs200'));
    assert.ok((await page.textContent('#command-line')).includes('--bus_mode=hs200'));
    // A bad value is answered at its field and changes nothing.
    await page.fill('#board-bus_width', '2');
    await page.press('#board-bus_width', 'Tab');
    await page.waitForSelector('[data-param=bus_width] .field-error');
    assert.match(await page.textContent('[data-param=bus_width] .field-error'), /accepted: 1, 4, 8/);
    assert.deepEqual(problems, []);
});

test('B of the A/B comparison runs its own board side by side', async () => {
    const { page, problems } = await openLab('?platform=unisoc-hsq-2023&rw=randread&size=4m');
    await page.click('#board > summary');
    assert.equal(await page.$('#b-pipeline'), null, 'no comparison yet');
    // Editing B starts a comparison with B = A; B's NAND read goes into the link as a b. key.
    await page.check('#board-edit-b');
    await page.waitForSelector('#b-pipeline');
    await page.fill('#board-nand_read_us', '240');
    await page.press('#board-nand_read_us', 'Tab');
    await page.waitForFunction(() => location.search.includes('b.nand_read_us=240'));
    assert.ok(!/[?&]nand_read_us=/.test(await page.evaluate(() => location.search)), 'A keeps its board');
    await page.check('#board-edit-a');
    assert.equal(await page.inputValue('#board-nand_read_us'), '', "A's field shows the preset");
    // The link restores B's board; both run on the same clock and B's slower NAND shows.
    await page.reload();
    await page.waitForSelector('#b-pipeline');
    await page.click('#board > summary');
    await page.check('#board-edit-b');
    assert.equal(await page.inputValue('#board-nand_read_us'), '240');
    await page.selectOption('#speed', '8');
    await page.click('#play');
    await page.waitForSelector('#play:has-text("Replay")', { timeout: 120_000 });
    const change = await page.textContent('#ab-table tr[data-metric=mib-s] td.change');
    assert.match(change, /^-\d/, `B (240 us NAND reads) is slower than A (60 us): ${change}`);
    assert.deepEqual(problems, []);
});

test('a sweep runs in Web Workers while the pipeline animation plays, with the numbers of a native run', async () => {
    const query = '?platform=unisoc-hsq-2023&rw=randwrite&numjobs=8&size=64m';
    const { page, problems } = await openPage(browser, base, query, { acceptDownloads: true }, '#run');
    // The pipeline animation plays (normal speed: it lasts far longer than the sweep).
    await page.click('#play');
    await page.waitForSelector('#play:has-text("Pause")');
    // The animation alone first, for comparison (printed).
    const alone = await page.evaluate(() => new Promise((resolve) => {
        const ts = [];
        const tick = (t) => { ts.push(t); if (t - ts[0] < 2000) requestAnimationFrame(tick); else resolve(ts); };
        requestAnimationFrame(tick);
    }));
    const aloneGaps = alone.slice(1).map((t, i) => t - alone[i]);
    console.log(`the animation alone: ${alone.length} frames in 2 s, frame gap mean ${(aloneGaps.reduce((a, b) => a + b, 0) / aloneGaps.length).toFixed(1)} ms, max ${Math.max(...aloneGaps).toFixed(1)} ms`);
    const before = await frameStats(page);
    await page.click('#sweep > summary');
    const workerWasm = () => env.served.filter((r) => r.path === '/mmcsim-worker_bg.wasm').length;
    const fetchedBefore = workerWasm();
    await page.fill('#sweep-1', 'hsq_depth=1..8');
    await page.press('#sweep-1', 'Tab');
    // Count animation frames while the sweep runs.
    await page.evaluate(() => {
        window.__frames = [];
        const tick = (t) => { window.__frames.push(t); if (!window.__stop) requestAnimationFrame(tick); };
        requestAnimationFrame(tick);
    });
    await page.click('#sweep-run');
    await page.waitForFunction(() => document.querySelectorAll('#sweep-table tbody tr').length === 8, null, { timeout: 180_000 });
    const frames = await page.evaluate(() => { window.__stop = true; return window.__frames; });
    const after = await frameStats(page);
    const workers = Number(await page.getAttribute('#sweep-workers', 'data-workers'));
    const gaps = frames.slice(1).map((t, i) => t - frames[i]);
    const mean = gaps.reduce((a, b) => a + b, 0) / Math.max(1, gaps.length);
    const max = Math.max(...gaps);
    console.log(`sweep of 8 points in ${workers} worker(s): ${frames.length} frames over ${((frames.at(-1) - frames[0]) / 1000).toFixed(1)} s, `
        + `frame gap mean ${mean.toFixed(1)} ms, max ${max.toFixed(1)} ms; the pipeline view drew ${after.frames - before.frames} frame(s)`);
    assert.ok(workers >= 1, 'the sweep ran in workers');
    assert.ok(frames.length > 20, `frames kept coming during the sweep: ${frames.length}`);
    assert.ok(after.frames - before.frames > 20, `the pipeline animation kept drawing: ${after.frames - before.frames}`);
    assert.ok((await page.textContent('#play')).includes('Pause'), 'the animation still plays');
    // Four charts, one line each, with a legend and the swept option on the x axis.
    assert.equal(await page.locator('.sweep-chart canvas').count(), 4, 'one chart per figure');
    assert.deepEqual(await page.$$eval('.sweep-chart', (fs) => fs.map((f) => f.dataset.series)), ['1', '1', '1', '1']);
    assert.match(await page.getAttribute('.sweep-chart canvas', 'aria-label'), /^Throughput against hsq_depth: MiB\/s$/);
    // The same points natively (the CLI, same seed): the same numbers, to the last bit.
    const native = JSON.parse(execFileSync('cargo', ['run', '-q', '-p', 'mmcsim-cli', '--bin', 'mmcsim', '--',
        '--platform=unisoc-hsq-2023', '--rw=randwrite', '--numjobs=8', '--size=64m', '--sweep=hsq_depth=1..8',
        '--output-format=json'], { cwd: root, encoding: 'utf8' })).rows;
    const inPage = await page.$$eval('#sweep-table tbody tr', (trs) => trs.map((tr) => ({
        index: Number(tr.dataset.index), mib_s: Number(tr.dataset.mibS), iops: Number(tr.dataset.iops),
        p99_us: Number(tr.dataset.p99Us), requeues: Number(tr.dataset.requeues),
    })));
    assert.deepEqual(inPage, native.map(({ index, mib_s, iops, p99_us, requeues }) => ({ index, mib_s, iops, p99_us, requeues })));
    // The page's CSV and JSON downloads are the CLI's --sweep outputs, byte for byte.
    for (const format of ['csv', 'json']) {
        const cli = execFileSync('cargo', ['run', '-q', '-p', 'mmcsim-cli', '--bin', 'mmcsim', '--',
            '--platform=unisoc-hsq-2023', '--rw=randwrite', '--numjobs=8', '--size=64m', '--sweep=hsq_depth=1..8',
            `--output-format=${format}`], { cwd: root, encoding: 'utf8' });
        const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`#sweep-export-${format}`)]);
        assert.equal(dl.suggestedFilename(), `sweep.${format}`);
        assert.equal(readFileSync(await dl.path(), 'utf8'), cli, `the page's ${format} is the CLI's`);
    }
    // Pin a point: it stays after another sweep.
    await page.click('#sweep-table tbody tr:nth-child(2) button');
    await page.fill('#sweep-1', 'packed=0,8');
    await page.press('#sweep-1', 'Tab');
    await page.click('#sweep-run');
    await page.waitForFunction(() => document.querySelectorAll('#sweep-table tbody tr').length === 2, null, { timeout: 120_000 });
    assert.equal(await page.locator('#pinned-table tbody tr').count(), 1);
    // Two sweeps in (per core) workers: the worker's wasm was downloaded once (issue 21).
    assert.equal(workerWasm() - fetchedBefore, 1, 'the worker wasm fetched once for two sweeps');
    // Named by what sets it apart, not by its link.
    assert.equal(await page.textContent('#pinned-table tbody tr td'), 'hsq_depth=2');
    await page.click('#sweep-table tbody tr:nth-child(2) button');
    const labels = await page.$$eval('#pinned-table tbody tr td:first-child', (tds) => tds.map((t) => t.textContent));
    assert.ok(/^hsq_depth=2\b/.test(labels[0]) && /^packed=8\b/.test(labels[1]) && !labels.join().includes('?'), labels.join(' | '));
    await page.click('#pinned-table tbody tr:nth-child(2) button');
    // A grid far too large is counted before any point is built: one message, the page lives on.
    await page.fill('#sweep-1', 'randseed=1..10000');
    await page.press('#sweep-1', 'Tab');
    await page.fill('#sweep-2', 'randseed=1..10000');
    await page.press('#sweep-2', 'Tab');
    await page.click('#sweep-run');
    await page.waitForSelector('#sweep .field-error');
    assert.match(await page.textContent('#sweep .field-error'), /randseed is swept twice/);
    await page.fill('#sweep-2', 'hsq_depth=1..16');
    await page.press('#sweep-2', 'Tab');
    await page.click('#sweep-run');
    await page.waitForFunction(() => /160000 points/.test(document.querySelector('#sweep .field-error')?.textContent ?? ''));
    assert.ok((await page.textContent('#play')).includes('Pause'), 'the animation still plays');
    assert.deepEqual(problems, []);
});

/** Three fio JSON results written by mmcsim itself on unisoc-hsq-2023 with its NAND read time
 * perturbed (60 -> 90 us): a fit must find 90 us back. */
function perturbedResults() {
    const dir = path.join(root, 'target', 'e2e-fit');
    mkdirSync(dir, { recursive: true });
    // Three: cross-validation (each left out, predicted by a fit to the others) needs three.
    return [['randread.json', ['--rw=randread', '--size=4m']], ['randread4.json', ['--rw=randread', '--numjobs=4', '--size=2m']],
        ['read64k.json', ['--rw=read', '--bs=64k', '--size=8m']]]
        .map(([name, w]) => {
            const text = execFileSync('cargo', ['run', '-q', '-p', 'mmcsim-cli', '--bin', 'mmcsim', '--',
                '--platform=unisoc-hsq-2023', '--nand_read_us=90', '--group_reporting', '--output-format=json', ...w],
            { cwd: root, encoding: 'utf8' });
            writeFileSync(path.join(dir, name), text);
            return path.join(dir, name);
        });
}

/** Every text the fit's progress line showed, recorded as it changes. */
function recordProgress(page) {
    return page.evaluate(() => {
        window.fitProgress = [];
        new MutationObserver(() => {
            const t = document.querySelector('#fit-progress-text')?.textContent;
            if (t && window.fitProgress.at(-1) !== t) window.fitProgress.push(t);
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
}

test('a fit shows its progress, previews the fitted board at 1366x768 and changes the board only when applied', async () => {
    const files = perturbedResults();
    const { page, problems } = await openPage(browser, base, '?platform=unisoc-hsq-2023&rw=randwrite&size=8m',
        { viewport: { width: 1366, height: 768 } }, '#run');
    await page.click('#board > summary');
    await page.fill('#fit-params', 'nand_read_us');
    await page.press('#fit-params', 'Tab');
    await recordProgress(page);
    await page.setInputFiles('#fit-files', files);
    await page.waitForSelector('#fit-result', { timeout: 300_000 });
    const seen = await page.evaluate(() => window.fitProgress);
    console.log(`fit progress seen: ${JSON.stringify(seen)}`);
    assert.ok(seen.some((t) => /^Fit [1-4] of 4/.test(t)), `the worker's progress: ${seen}`);
    const fitted = Number(await page.getAttribute('#fit-params-table tr[data-param=nand_read_us]', 'data-fitted'));
    assert.ok(Math.abs(fitted / 90 - 1) < 0.05, `fitted ${fitted} us, perturbed 90 us`);
    assert.equal(await page.locator('#fit-cases tbody tr').count(), 9, 'MiB/s, p50 and p99 of each result');
    assert.equal(await page.locator('#fit-left-out tbody tr').count(), 3, 'each result left out and predicted');
    assert.match(await page.textContent('#fit-verdict'), /^Verdict: trusted/);
    assert.match(await page.textContent('#fit-left-out-max'), /Left-out error: at most \d+\.\d %/);
    assert.ok(await page.isVisible('#fit-unconstrained'));
    assert.ok(!/--/.test(await page.textContent('#fit-result')), 'no command-line options in the page');
    // Every column of every table is inside the preview and the screen.
    const edges = await page.evaluate(() => {
        const box = document.querySelector('#fit-result').getBoundingClientRect();
        return [...document.querySelectorAll('#fit-result table')].map((t) => {
            const last = [...t.querySelectorAll('thead th')].at(-1).getBoundingClientRect();
            return { id: t.id, right: last.right, box: box.right, vw: innerWidth, scrolls: t.parentElement.scrollWidth > t.parentElement.clientWidth };
        });
    });
    for (const e of edges) {
        assert.ok(e.right <= e.box && e.box <= e.vw && !e.scrolls, `a column out of view: ${JSON.stringify(e)}`);
    }
    await page.screenshot({ path: await screenshotPath('fit-1366x768.png') });
    // Previewed, not applied: the link and the field are as they were.
    assert.ok(!(await page.evaluate(() => location.search)).includes('nand_read_us'), 'applied before Apply');
    await page.click('#fit-apply');
    await page.waitForFunction(() => /nand_read_us=\d/.test(location.search));
    assert.ok((await page.evaluate(() => location.search)).includes('rw=randwrite'), 'the workload kept');
    assert.equal(Number(await page.inputValue('#board-nand_read_us')), fitted);
    assert.match(await page.textContent('#fit-status'), /^Applied/);
    assert.deepEqual(problems, []);
});

test('an untrusted fit is applied only when asked to; Stop ends a fit and leaves the board', async () => {
    const dir = path.join(root, 'target', 'e2e-fit');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'one.json');
    writeFileSync(file, execFileSync('cargo', ['run', '-q', '-p', 'mmcsim-cli', '--bin', 'mmcsim', '--',
        '--platform=unisoc-hsq-2023', '--rw=randread', '--size=1m', '--group_reporting', '--output-format=json'],
    { cwd: root, encoding: 'utf8' }));
    const { page, problems } = await openLab('?platform=unisoc-hsq-2023');
    await page.click('#board > summary');
    await page.fill('#fit-params', 'nand_read_us,bus_mb_s,completion_us,submit_us');
    await page.press('#fit-params', 'Tab');
    await page.setInputFiles('#fit-files', [file]);
    await page.waitForSelector('#fit-warnings', { timeout: 300_000 });
    assert.match(await page.textContent('#fit-untrusted'), /^Verdict: not trusted/);
    assert.match(await page.textContent('#fit-warnings'), /3 measured figure\(s\) for 4 parameter\(s\); open more result files/);
    assert.ok(await page.isDisabled('#fit-apply'), 'an untrusted fit cannot be applied without asking');
    await page.check('#fit-anyway');
    assert.ok(await page.isEnabled('#fit-apply'));
    await page.click('#fit-close');
    assert.equal(await page.evaluate(() => location.search), '?platform=unisoc-hsq-2023', 'closed: the board unchanged');
    // A longer fit (three files, the usual six parameters) stopped: no result, the board as it was.
    await page.fill('#fit-params', '');
    await page.press('#fit-params', 'Tab');
    await page.setInputFiles('#fit-files', perturbedResults());
    await page.waitForSelector('#fit-stop');
    await page.waitForFunction(() => /^Fit \d of 4/.test(document.querySelector('#fit-progress-text')?.textContent ?? ''), null, { timeout: 120_000 });
    await page.click('#fit-stop');
    assert.match(await page.textContent('#fit-status'), /^Stopped at fit \d of 4: nothing fitted, the board is unchanged/);
    assert.equal(await page.locator('#fit-stop, #fit-progress, #fit-result').count(), 0);
    assert.ok(await page.isEnabled('#fit-files'), 'a new fit can be started');
    assert.equal(await page.evaluate(() => location.search), '?platform=unisoc-hsq-2023');
    // A file that is not fio JSON: one message, nothing applied.
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, '{"jobs": []}');
    await page.setInputFiles('#fit-files', [bad]);
    await page.waitForSelector('#fit-error');
    assert.match(await page.textContent('#fit-error'), /bad\.json: no "jobs"/);
    assert.deepEqual(problems, []);
});
