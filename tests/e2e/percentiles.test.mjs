// End-to-end test of the latency percentile chart (p1 ... p99.99 on a tail axis, latency on a
// log scale) beside the clat CDF: with a comparison on it draws A and B, their p99 points
// differ when the run makes them differ, and "Charts PNG" saves it. Saves
// percentiles-1366x768.png (target/screenshots/, or docs/ under `make screenshots`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, download, runToEnd, screenshotPath } from './tools_harness.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

// The Allwinner board's measured fio command, shortened: hsq's old slot order (A) against FIFO (B).
const LINK = '?platform=allwinner-hsq-2022&rw=randread&numjobs=8&size=2m&mmc_path=hsq'
    + '&hsq_dispatch=next_tag&b.hsq_dispatch=fifo&compare=1';

/** Pixels of a colour on a canvas. */
function count(page, sel, rgb) {
    return page.evaluate(([sel, rgb]) => {
        const c = document.querySelector(sel);
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) {
            if (Math.abs(d[i] - rgb[0]) < 24 && Math.abs(d[i + 1] - rgb[1]) < 24 && Math.abs(d[i + 2] - rgb[2]) < 24) n++;
        }
        return n;
    }, [sel, rgb]);
}

test('the percentile chart overlays A and B beside the CDF, and Charts PNG saves it', async () => {
    const { page, problems, close } = await openPage(env, LINK);
    await page.setViewportSize({ width: 1366, height: 768 });
    await runToEnd(page);
    const chart = '#chart-percentiles';
    await page.waitForSelector(`${chart}[data-p99-a][data-p99-b]`, { timeout: 30_000 });
    // Drawn after the render that gave it data: wait for both colours.
    let blue = 0;
    let orange = 0;
    for (let i = 0; i < 40 && (blue < 150 || orange < 150); i++) {
        await page.waitForTimeout(100);
        blue = await count(page, chart, [0x25, 0x63, 0xeb]);
        orange = await count(page, chart, [0xea, 0x58, 0x0c]);
    }
    assert.ok(blue > 150, `A's series drawn (${blue} px)`);
    assert.ok(orange > 150, `B's series drawn (${orange} px)`);
    const [a, b] = await page.$eval(chart, (c) => [Number(c.dataset.p99A), Number(c.dataset.p99B)]);
    assert.ok(a > 0 && b > 0, `p99 of A ${a} ns, of B ${b} ns`);
    assert.notEqual(a, b, 'next_tag and FIFO give different p99s in this run');
    // Beside the CDF: the same row of the chart grid.
    const [cdf, pct] = await Promise.all(['#chart-latency', chart].map((s) => page.$eval(s, (c) => c.getBoundingClientRect().toJSON())));
    assert.ok(Math.abs(cdf.top - pct.top) < 2 && pct.left > cdf.right - 1, `side by side: ${JSON.stringify([cdf, pct])}`);
    await page.$eval(chart, (c) => c.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: await screenshotPath('percentiles-1366x768.png') });

    await download(page, '#export-png');
    assert.match(await page.textContent('#export-status'), /chart-percentiles/);
    assert.deepEqual(problems, []);
    await close();
});
