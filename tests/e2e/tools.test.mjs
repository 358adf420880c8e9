// End-to-end tests of the scenario links, the gallery, fio job files, the exports and the plug,
// on the release build in dist/ (`make test-e2e` builds it first). Any console error, page error
// or failed request fails a test. Saves gallery.png and power-cut.png for the README
// (target/screenshots/, or docs/ under `make screenshots`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { root, start, openPage, download, runToEnd, screenshotPath } from './tools_harness.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

/** The CLI's output for the same options (built on first use; the same engine, natively). */
function cli(args) {
    return execFileSync('cargo', ['run', '-q', '--release', '--bin', 'mmcsim', '--', ...args], {
        cwd: root, encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'inherit'],
    });
}

// One scenario, written once as a link and once as CLI options.
const OPTIONS = {
    platform: 'unisoc-hsq-2023', rw: 'randwrite', bs: '4k', numjobs: '8', ioengine: 'libaio',
    iodepth: '64', hsq_depth: 'dynamic', size: '2m', group_reporting: '1',
};
const LINK = '?' + Object.entries(OPTIONS).map(([k, v]) => `${k}=${v}`).join('&');
const ARGS = Object.entries(OPTIONS).map(([k, v]) => `--${k}=${v}`);

test('a link opens the exact scenario: the same MiB/s and the same fio JSON as the CLI', async () => {
    const json = cli([...ARGS, '--output-format=json']);
    const job = JSON.parse(json).jobs[0];
    const cliMibs = (job.read.bw_bytes + job.write.bw_bytes) / 1048576;

    const { page, problems, close } = await openPage(env, LINK);
    assert.equal(await page.$('.notice'), null, 'the link loads without complaint');
    assert.equal(await page.inputValue('#ctl-hsq_depth'), 'dynamic');
    await runToEnd(page);
    const mibs = Number(await page.textContent('[data-metric=total-mib-s] .value'));
    assert.ok(Math.abs(mibs - cliMibs) < 0.006, `page ${mibs} MiB/s, CLI ${cliMibs.toFixed(3)} MiB/s`);

    // The fio JSON export is the CLI's --output-format=json, byte for byte.
    const dl = await download(page, '#export-json');
    assert.match(dl.name, /\.json$/);
    assert.equal(dl.body.toString('utf8'), json);
    assert.deepEqual(problems, []);
    await close();
});

test('exports: CSV, trace-event JSON and chart PNG after a run', async () => {
    const { page, problems, close } = await openPage(env, '?size=1m&numjobs=4');
    await runToEnd(page);
    const csv = await download(page, '#export-csv');
    const lines = csv.body.toString('utf8').trim().split('\n');
    assert.equal(lines[0], 't_ms,mib_s,iops,read_mib_s,write_mib_s,avg_inflight');
    assert.ok(lines.length > 3, `CSV has rows: ${lines.length}`);

    const trace = await download(page, '#export-trace');
    const doc = JSON.parse(trace.body.toString('utf8'));
    assert.ok(Array.isArray(doc.traceEvents) && doc.traceEvents.length > 100, 'trace events');
    assert.ok(doc.traceEvents.some((e) => e.ph === 'X' && e.cat === 'request'), 'request slices');
    assert.match(await page.textContent('#export-status'), /Perfetto|perfetto/);

    const png = await download(page, '#export-png');
    assert.match(png.name, /\.png$/);
    assert.deepEqual([...png.body.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'a PNG file');
    // Issue 12: "Charts PNG" saved four empty charts. Only charts with something drawn are saved.
    const saved = await page.textContent('#export-status');
    const empty = await page.$$eval('canvas[data-empty="true"]', (cs) => cs.map((c) => c.id));
    for (const id of empty) assert.ok(!saved.includes(`-${id}.png`), `${id} is empty and was saved: ${saved}`);

    const jobfile = await download(page, '#jobfile-save');
    assert.match(jobfile.body.toString('utf8'), /numjobs=4/);
    assert.deepEqual(problems, []);
    await close();
});

test('a link with bad values says what it left out and loads the rest', async () => {
    const { page, problems, close } = await openPage(env, '?numjobs=zero&bs=512k&b.packed=99&platform=nope&%ZZ=1&rw=write');
    const notices = (await page.$$eval('.notice', (n) => n.map((e) => e.textContent))).join('\n');
    assert.match(notices, /numjobs/);
    assert.match(notices, /platform/);
    assert.equal(await page.inputValue('#ctl-bs'), '512k', 'good values still apply');
    assert.equal(await page.inputValue('#ctl-rw'), 'write');
    assert.equal(await page.inputValue('#ctl-numjobs'), '1', 'the bad value is left at its default');
    await page.fill('#ctl-size', '1m');
    await page.press('#ctl-size', 'Enter');
    await runToEnd(page);
    assert.deepEqual(problems, []);
    await close();
});

test('Share copies the page link, which opens the same scenario', async () => {
    const { page, problems, close } = await openPage(env, LINK, { clipboard: true });
    await page.click('#share');
    await page.waitForSelector('#share-status');
    assert.match(await page.textContent('#share-status'), /Copied/);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, await page.inputValue('#share-url'));
    const again = await openPage(env, copied.slice(env.base.length));
    assert.equal(await again.page.textContent('#command-line'), await page.textContent('#command-line'));
    assert.equal(await again.page.inputValue('#share-url'), copied, 'the shared link is stable');
    assert.equal(await again.page.$('.notice'), null);
    assert.deepEqual(problems, []);
    assert.deepEqual(again.problems, []);
    await again.close();
    await close();
});

test('Share without a clipboard selects the link instead', async () => {
    const { page, problems, close } = await openPage(env, LINK, {
        init: () => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }),
    });
    await page.click('#share');
    await page.waitForSelector('#share-status');
    assert.match(await page.textContent('#share-status'), /selected/);
    const selected = await page.evaluate(() => {
        const i = document.querySelector('#share-url');
        return i.value.substring(i.selectionStart, i.selectionEnd);
    });
    assert.equal(selected, await page.inputValue('#share-url'));
    assert.deepEqual(problems, []);
    await close();
});

test('job files: a bad one names the line and keeps the scenario, a good one becomes it', async () => {
    const { page, problems, close } = await openPage(env, '?bs=512k');
    const before = await page.textContent('#command-line');
    await page.click('.jobfile summary');
    await page.fill('#jobfile-text', '[global]\nplatform=unisoc-fua-2022\n\n[w]\nrw=randwrite\nioengine=mmap\n');
    await page.click('#jobfile-load');
    await page.waitForSelector('#jobfile-error');
    assert.match(await page.textContent('#jobfile-error'), /line 6: ioengine.*mmap/);
    assert.equal(await page.textContent('#command-line'), before, 'the scenario is kept');

    // Not a job file at all.
    await page.fill('#jobfile-text', '<script>alert(1)</script>\n\u0000\u00ff[[[');
    await page.click('#jobfile-load');
    await page.waitForSelector('#jobfile-error');
    assert.match(await page.textContent('#jobfile-error'), /line 1/);
    assert.equal(await page.$('#jobfile-error script'), null, 'text stays text');

    // A good file, opened from disk.
    const file = '[global]\nplatform=unisoc-fua-2022\n\n[w]\nrw=randwrite\nbs=4k\nsync=1\nfua=0\nsize=2m\n';
    await page.setInputFiles('#jobfile-open', { name: 'fua-off.fio', mimeType: 'text/plain', buffer: Buffer.from(file) });
    await page.waitForSelector('#jobfile-status');
    assert.match(await page.textContent('#jobfile-status'), /fua-off\.fio/);
    const cmd = await page.textContent('#command-line');
    assert.match(cmd, /--platform=unisoc-fua-2022/);
    assert.match(cmd, /--sync=1/);
    await page.waitForFunction(() => location.search.includes('platform=unisoc-fua-2022'));
    assert.equal(await page.inputValue('#ctl-fua'), '0');
    assert.deepEqual(problems, []);
    await close();
});

test('a two-job file shows each job; editing job 2 leaves job 1 as it was', async () => {
    const { page, problems, close } = await openPage(env, '?bs=512k');
    assert.equal(await page.$('#job-tabs'), null, 'one job: no tabs');
    await page.click('.jobfile summary');
    const file = '[global]\nsize=2m\n\n[reader]\nrw=randread\nbs=4k\nnumjobs=2\niodepth=4\nioengine=libaio\n\n[writer]\nrw=write\nbs=64k\n';
    await page.fill('#jobfile-text', file);
    await page.click('#jobfile-load');
    await page.waitForSelector('#job-tabs');
    assert.match(await page.textContent('#job-tab-1'), /reader: randread 4k ×2/);
    assert.match(await page.textContent('#job-tab-2'), /writer: write 64k/);
    // Job 1's own values, then job 2's.
    assert.equal(await page.inputValue('#ctl-rw'), 'randread');
    assert.equal(await page.inputValue('#ctl-numjobs'), '2');
    await page.click('#job-tab-2');
    await page.waitForFunction(() => document.querySelector('#ctl-rw').value === 'write');
    assert.equal(await page.getAttribute('#job-tab-2', 'aria-selected'), 'true');
    assert.equal(await page.inputValue('#ctl-bs'), '64k');
    assert.equal(await page.inputValue('#ctl-numjobs'), '1');
    // Edit job 2's numjobs: job 1 keeps its 2.
    await page.fill('#ctl-numjobs', '3');
    await page.press('#ctl-numjobs', 'Enter');
    await page.waitForFunction(() => /writer: write 64k ×3/.test(document.querySelector('#job-tab-2').textContent));
    assert.match(await page.textContent('#job-tab-1'), /reader: randread 4k ×2/);
    await page.click('#job-tab-1');
    await page.waitForFunction(() => document.querySelector('#ctl-numjobs').value === '2');
    // The saved job file, the command line and the link carry both jobs, each with its own.
    const saved = (await download(page, '#jobfile-save')).body.toString('utf8');
    const section = (name) => saved.split(/\n(?=\[)/).find((s) => s.startsWith(`[${name}]`)) ?? '';
    assert.match(section('reader'), /rw=randread/);
    assert.match(section('reader'), /numjobs=2/);
    assert.match(section('writer'), /rw=write/);
    assert.match(section('writer'), /numjobs=3/);
    const cmd = await page.textContent('#command-line');
    assert.match(cmd, /--name=reader .*--numjobs=2.*--name=writer .*--numjobs=3/);
    const search = await page.evaluate(() => location.search);
    assert.match(search, /job1\.numjobs=2/);
    assert.match(search, /job2\.numjobs=3/);
    // The run is both jobs, each with its own clones: 2 readers x 2 MiB of 4 KiB reads,
    // 3 writers x 2 MiB of 64 KiB writes.
    await runToEnd(page);
    const ios = await page.$$eval('#results [data-metric=ios] td', (t) => t.map((c) => c.textContent.replace(/\D/g, '')));
    assert.deepEqual(ios, ['1024', '96']);
    assert.deepEqual(problems, []);
    await close();
});

test('each gallery entry reproduces its table (within 15 % except the flagged outlier)', async () => {
    const { page, problems, close } = await openPage(env);
    const series = await page.$$eval('.gallery-card', (c) => c.map((e) => e.dataset.series));
    assert.equal(series.length, 8);
    // Each card is keyed by its series' id, once: the hsq introduction (2020) ran on the
    // packed RFC's board, the FIFO dispatch patch on the Allwinner preset.
    assert.deepEqual(series, ['sprd-hs400es-2020', 'unisoc-fua-2022', 'u300-mmci-2011', 'unisoc-hsq-2023', 'hsq-intro-2020', 'fifo-dispatch-2022', 'io-schedulers', 'kernel-upgrade']);
    const PLATFORM = { 'hsq-intro-2020': 'sprd-hs400es-2020', 'fifo-dispatch-2022': 'allwinner-hsq-2022', 'io-schedulers': 'unisoc-hsq-2023', 'kernel-upgrade': 'unisoc-hsq-2023' };
    const platformOf = (s) => PLATFORM[s] ?? s;
    for (const s of series) {
        await page.click(`.gallery-card[data-series="${s}"]`);
        await page.waitForSelector(`.gallery-detail[data-series="${s}"]`);
        // The entry loads its A/B pair: the link holds B's keys, the form shows A.
        await page.waitForFunction(() => location.search.includes('b.'));
        assert.equal(await page.inputValue('#ctl-platform'), platformOf(s));
        await page.waitForSelector('#gallery-progress', { state: 'detached', timeout: 300_000 });
        if (s === 'fifo-dispatch-2022') {
            // The FIFO dispatch patch (2022) has no A/B table: the card says so, its tour has the numbers.
            assert.match(await page.textContent('#gallery-no-table'), /200 ms/);
            assert.match(await page.textContent('.gallery-detail h3'), /FIFO dispatch \(2022\)/);
            continue;
        }
        if (s === 'io-schedulers') {
            // The schedulers lesson is no patch: no table, the kernel's two schedulers on the 2023 board.
            assert.match(await page.textContent('#gallery-no-table'), /No patch and no measured table/);
            assert.match(await page.textContent('.gallery-detail h3'), /Which I\/O scheduler/);
            continue;
        }
        if (s === 'kernel-upgrade') {
            // The upgrade lesson is no patch either: two kernels' block layers on the 2023 board.
            assert.match(await page.textContent('#gallery-no-table'), /No patch and no measured table: two kernels/);
            assert.match(await page.textContent('.gallery-detail h3'), /Upgrading the kernel/);
            continue;
        }
        const rows = await page.$$eval('.gallery-table tbody tr[data-case]', (trs) => trs.map((tr) => ({
            workload: tr.dataset.workload,
            outlier: tr.classList.contains('outlier'),
            cells: Object.fromEntries([...tr.querySelectorAll('[data-col]')].map((td) => [td.dataset.col, td.textContent])),
        })));
        assert.equal(rows.length, 4, `${s}: four cases`);
        for (const r of rows) {
            for (const col of ['a', 'b']) {
                const m = Number(r.cells[`measured-${col}`]);
                const sim = Number(r.cells[`sim-${col}`]);
                assert.ok(Number.isFinite(sim) && sim > 0, `${s} ${r.workload} ${col}: simulated ${r.cells[`sim-${col}`]}`);
                const err = Math.abs(sim - m) / m * 100;
                if (!r.outlier) assert.ok(err <= 15, `${s} ${r.workload} ${col}: ${sim} vs ${m} (${err.toFixed(1)} %)`);
            }
        }
        if (s === 'sprd-hs400es-2020') {
            assert.equal(rows.filter((r) => r.outlier).length, 1, 'the randread case is flagged');
            assert.match(await page.textContent('.outlier-note'), /Flagged outlier/);
            const gallery = await page.$('#gallery');
            await gallery.screenshot({ path: await screenshotPath('gallery.png') });
        }
    }
    // The FUA walk-through, step by step: each step's button does what it says.
    await page.click('.gallery-card[data-series="unisoc-fua-2022"]');
    // The step list (the tour is tests/e2e/lesson.test.mjs) is folded under the tour button.
    await page.click('.walk-old summary');
    const step = async (n, expect) => {
        assert.equal(await page.getAttribute('.stepper', 'data-step'), String(n));
        assert.match(await page.textContent('.stepper-do'), expect);
        await page.click('.stepper-do');
    };
    await step(0, /Load A/);
    await page.waitForFunction(() => /fua=0/.test(location.search) && /b\.fua=1/.test(location.search));
    assert.equal(await page.inputValue('#ctl-fua'), '0');
    await step(1, /Play at 200 µs\/s/);
    await page.waitForSelector('#play[aria-pressed=true]');
    assert.equal(await page.$eval('#speed', (s) => s.selectedOptions[0].textContent), '200 µs/s');
    await page.waitForTimeout(500);
    await step(2, /Pause/);
    await page.waitForSelector('#play[aria-pressed=false]');
    await step(3, /Show: storage chip \(eMMC/);
    await page.waitForSelector('#watch g.stage.focused[data-layer=Card]');
    assert.match(await page.textContent('#explain-title'), /eMMC/);
    // FUA off: each O_SYNC write waited for the block layer's flush, so nothing is lost.
    await step(4, /Pull the plug at 50ms/);
    await page.waitForSelector('#power-cut:not(.lost)', { timeout: 120_000 });
    assert.match(page.url(), /power_cut=50ms/);
    assert.equal(await page.textContent('[data-metric=lost-acked-writes] td'), '0');
    await step(5, /Load B/);
    await page.waitForFunction(() => /fua=1/.test(location.search) && !location.search.includes('b.'));
    await step(6, /Run to the end/);
    await page.waitForSelector('[data-metric=measured] .value', { timeout: 120_000 });
    assert.equal(await page.textContent('[data-metric=measured] .value'), '12.68');
    await step(7, /Pull the plug at 50ms/);
    await page.waitForSelector('#power-cut:not(.lost)', { timeout: 120_000 });
    assert.equal(await page.textContent('[data-metric=lost-acked-writes] td'), '0');
    assert.deepEqual(problems, []);
    await close();
});

test('pulling the plug on plain random writes loses acknowledged writes, O_SYNC ones none', async () => {
    // A long run (16 GiB of 4 KiB writes that ask for no durability: no O_SYNC, no fsync) on
    // the 2020 board, whose cache holds data before programming it, so it is still running
    // when the plug is pulled.
    const { page, problems, close } = await openPage(env, '?platform=sprd-hs400es-2020&rw=randwrite&bs=4k&size=16g');
    await page.click('#run');
    await page.waitForFunction(() => Number(document.querySelector('[role=progressbar]').getAttribute('aria-valuenow')) >= 1);
    await page.click('#pull-plug');
    await page.waitForSelector('#power-cut', { timeout: 60_000 });
    const lost = Number((await page.textContent('[data-metric=lost-acked-writes] td')).replace(/\D/g, ''));
    assert.ok(lost > 0, `acknowledged writes lost: ${lost}`);
    assert.ok(await page.$$eval('.lost-range', (r) => r.length) > 0, 'lost ranges listed');
    assert.match(await page.textContent('#power-cut'), /volatile cache/);

    // The same cut, scheduled: power_cut=50ms goes into the link and the report.
    await page.fill('#ctl-power_cut', '50ms');
    await page.press('#ctl-power_cut', 'Enter');
    await page.waitForFunction(() => location.search.includes('power_cut=50ms'));
    await page.fill('#ctl-size', '64m');
    await page.press('#ctl-size', 'Enter');
    await runToEnd(page);
    await page.waitForSelector('#power-cut');
    assert.equal(await page.textContent('[data-metric=cut-at] td'), '50.0 ms');
    const lost50 = Number((await page.textContent('[data-metric=lost-acked-writes] td')).replace(/\D/g, ''));
    assert.ok(lost50 > 0, `acknowledged writes lost at 50 ms: ${lost50}`);
    await (await page.$('.output')).screenshot({ path: await screenshotPath('power-cut.png') });

    // O_SYNC writes (REQ_FUA: a flush after each without FUA): nothing acknowledged is lost.
    // (sync= is not among the Lab's visible controls: a link sets it, as a shared one would.)
    {
        const o = await openPage(env, '?platform=sprd-hs400es-2020&rw=randwrite&bs=4k&size=64m&power_cut=50ms&sync=1');
        await runToEnd(o.page);
        await o.page.waitForSelector('#power-cut');
        assert.equal(await o.page.textContent('[data-metric=lost-acked-writes] td'), '0');
        assert.ok(Number((await o.page.textContent('[data-metric=acked-writes] td')).replace(/\D/g, '')) > 0,
            'O_SYNC writes were acknowledged before the cut');
        assert.deepEqual(o.problems, []);
        await o.close();
    }

    // A bad time is answered at the field.
    await page.fill('#ctl-power_cut', 'soon');
    await page.press('#ctl-power_cut', 'Enter');
    await page.waitForSelector('#err-power_cut');
    assert.match(await page.textContent('#err-power_cut'), /power_cut.*kept 50ms/);
    assert.deepEqual(problems, []);
    await close();
});

/** A `power_cut=` time of a link ("433ns", "1200us", "3ms") in ns. */
function timeNs(text) {
    const m = /^(\d+)(ns|us|ms|s)$/.exec(text);
    assert.ok(m, `a time: ${text}`);
    return Number(m[1]) * { ns: 1, us: 1e3, ms: 1e6, s: 1e9 }[m[2]];
}

test('the plug pulled during a slow play cuts at the moment on screen and shows what was lost', async () => {
    // Plain writes (no O_SYNC, no fsync) are acknowledged from the card's volatile cache.
    const query = '?platform=sprd-hs400es-2020&rw=randwrite&bs=4k&size=16m';
    const { page, problems, close } = await openPage(env, query);
    await page.selectOption('#speed', { label: '1 ms/s' });
    await page.click('#play');
    await page.waitForFunction(() => Number(document.querySelector('#sim-clock').dataset.ns) > 1_500_000, null, { timeout: 60_000 });
    assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'true', 'still playing slowly');
    // The moment on screen and the click in one task: no animation frame runs in between.
    const shown = await page.evaluate(() => {
        const ns = Number(document.querySelector('#sim-clock').dataset.ns);
        document.querySelector('#watch-pull-plug').click();
        return ns;
    });
    await page.waitForSelector('#watch-power-cut');
    const cell = (m) => page.textContent(`#watch-power-cut [data-metric=${m}]`).then((t) => Number(t.replace(/\D/g, '')));
    const cut = Number(await page.getAttribute('#watch-power-cut [data-metric=cut-at]', 'data-ns'));
    const frameNs = 1_000_000 / 60; // one 60 Hz frame at 1 ms/s
    assert.ok(Math.abs(cut - shown) <= frameNs, `cut at ${cut} ns, shown ${shown} ns`);
    // The view stops at the cut, and the plug cannot be pulled twice.
    assert.equal(Number(await page.getAttribute('#sim-clock', 'data-ns')), cut);
    assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false');
    assert.ok(await page.isDisabled('#watch-pull-plug'));
    const [acked, lost, kept] = [await cell('acked-writes'), await cell('lost-acked-writes'), await cell('kept-acked-writes')];
    assert.ok(lost > 0, `acknowledged writes lost: ${lost}`);
    assert.equal(acked, lost + kept, `${acked} acknowledged = ${lost} lost + ${kept} kept`);
    // The Lab's report is the same run's.
    await page.waitForSelector('#power-cut');
    assert.equal(Number((await page.textContent('#power-cut [data-metric=lost-acked-writes] td')).replace(/\D/g, '')), lost);

    // The link now carries the cut at that moment, and opens the same cut.
    await page.waitForFunction(() => location.search.includes('power_cut='));
    const search = await page.evaluate(() => location.search);
    assert.equal(timeNs(new URLSearchParams(search).get('power_cut')), cut);
    assert.equal(timeNs(await page.inputValue('#ctl-power_cut')), cut);
    assert.deepEqual(problems, []);
    await close();

    const again = await openPage(env, search);
    await runToEnd(again.page);
    await again.page.waitForSelector('#power-cut');
    const lostAgain = Number((await again.page.textContent('#power-cut [data-metric=lost-acked-writes] td')).replace(/\D/g, ''));
    assert.equal(lostAgain, lost, 'the link gives the same cut');
    assert.equal(Number(await again.page.getAttribute('#watch-power-cut [data-metric=cut-at]', 'data-ns')), cut);
    assert.deepEqual(again.problems, []);
    await again.close();
});
