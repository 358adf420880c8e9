// End-to-end test of the release build in dist/ (`make test-e2e` builds it first): a tiny
// static server on 127.0.0.1, Debian's Chromium driven by playwright-core, a user pressing Run.
// Any console error or page error fails the test. Saves screenshot.png (the README's picture;
// target/screenshots/, or docs/ under `make screenshots`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshotPath, start } from './harness.mjs';

// The series colour of the throughput chart (components/src/chart.rs, LINE).
const SERIES_RGB = [0x25, 0x63, 0xeb];

let env;
let browser;
let base;

// The static server for dist/ and the browser: the shared harness (one copy of the flags).
before(async () => {
    env = await start();
    ({ browser, base } = env);
});

after(async () => {
    await env?.close();
});

/** A page that records every console error, page error and failed request. */
/** The page on `query`, ready when the Lab's Run is there. */
function openLab(query = '') {
    return openPage(browser, base, query, {}, '#run');
}

test('Run simulates the default scenario and shows plausible results and a chart', async () => {
    const { page, problems } = await openLab();
    await page.click('#run');
    await page.waitForSelector('[data-metric=total-mib-s] .value', { timeout: 120_000 });
    const mibs = Number(await page.textContent('[data-metric=total-mib-s] .value'));
    assert.ok(mibs > 10 && mibs < 1000, `MiB/s of the default scenario is plausible: ${mibs}`);
    assert.equal(await page.getAttribute('[role=progressbar]', 'aria-valuenow'), '100');

    // The chart has the series drawn in it, not only axes.
    const seriesPixels = await page.evaluate((rgb) => {
        const c = document.querySelector('#throughput-chart');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) {
            if (Math.abs(d[i] - rgb[0]) < 24 && Math.abs(d[i + 1] - rgb[1]) < 24 && Math.abs(d[i + 2] - rgb[2]) < 24) n++;
        }
        return n;
    }, SERIES_RGB);
    assert.ok(seriesPixels > 200, `throughput line drawn (${seriesPixels} pixels)`);

    await page.screenshot({ path: await screenshotPath('screenshot.png'), fullPage: true });
    assert.deepEqual(problems, []);
    await page.close();
});

test('a bad value in the URL query is answered with the parser message', async () => {
    const { page, problems } = await openLab('?bs=huge&rw=randread');
    const notice = await page.textContent('.notice');
    assert.match(notice, /^URL: bs/);
    assert.equal(await page.inputValue('#ctl-bs'), '4k', 'bad bs keeps the default');
    assert.equal(await page.inputValue('#ctl-rw'), 'randread', 'good pairs still apply');
    assert.deepEqual(problems, []);
    await page.close();
});

test('an invalid control value shows the message and keeps the previous value in effect', async () => {
    // A link (not the landing, whose 2020 pair runs 20 jobs at iodepth 20).
    const { page, problems } = await openLab('?bs=4k');
    await page.fill('#ctl-iodepth', 'deep');
    await page.press('#ctl-iodepth', 'Enter');
    await page.waitForSelector('#err-iodepth');
    assert.match(await page.textContent('#err-iodepth'), /^iodepth.*kept 1/);
    // The refused text stays in its field, beside its message, so that clearing or fixing it
    // is an edit that clears the message; the scenario (and the link) keep iodepth 1.
    assert.equal(await page.inputValue('#ctl-iodepth'), 'deep');
    assert.ok(!page.url().includes('iodepth=deep'), page.url());
    await page.fill('#ctl-iodepth', '4');
    await page.press('#ctl-iodepth', 'Enter');
    await page.waitForFunction(() => !document.querySelector('#err-iodepth'));
    await page.waitForFunction(() => location.search.includes('iodepth=4'));
    assert.deepEqual(problems, []);
    await page.close();
});

test('the URL follows the controls and a reload restores the scenario', async () => {
    const { page, problems } = await openLab();
    await page.selectOption('#ctl-rw', 'randwrite');
    await page.fill('#ctl-bs', '512k');
    await page.press('#ctl-bs', 'Enter');
    await page.waitForFunction(() => location.search.includes('bs=512k'));
    assert.match(page.url(), /rw=randwrite/);
    await page.reload();
    await page.waitForSelector('#run');
    assert.equal(await page.inputValue('#ctl-bs'), '512k');
    assert.equal(await page.inputValue('#ctl-rw'), 'randwrite');
    assert.equal(await page.$('.notice'), null, 'a link the page wrote loads without complaint');
    assert.deepEqual(problems, []);
    await page.close();
});

test('a measured case from a link shows the published figure next to the simulated one', async () => {
    // The 2020 packed-request RFC's non-packed sequential read (20 psync jobs, 4 KiB).
    const { page, problems } = await openLab('?numjobs=20&size=4m');
    await page.click('#run');
    await page.waitForSelector('[data-metric=measured] .value', { timeout: 120_000 });
    assert.equal(await page.textContent('[data-metric=measured] .value'), '60.68');
    // "simulated 62.10 MiB/s (+2.3 %)": the error is in the parentheses.
    const err = Number((await page.textContent('[data-metric=error]')).split('(').pop().replace(/[^0-9.+-]/g, ''));
    assert.ok(Math.abs(err) < 15, `simulated within 15 % of the measurement: ${err} %`);
    assert.deepEqual(problems, []);
    await page.close();
});
