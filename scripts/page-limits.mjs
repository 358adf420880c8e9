// Measures (prints, asserts nothing) the page's largest accepted input per source of requests,
// each run to the end in the release build (dist/, `trunk build --release`) in headless
// Chromium, as a user runs it: the link (and a trace file opened with the file picker), then
// Run, then the results. Per input: the wall time, the CPU time of the renderer process
// (Chromium's SystemInfo.getProcessInfo) and of the page's main-thread tasks (CDP
// Performance.getMetrics TaskDuration), the peak JS heap (JSHeapUsedSize, sampled every 200 ms)
// and the wasm memory (every WebAssembly.Memory of the page, found with Runtime.queryObjects;
// wasm memory never shrinks, so its size at the end is its peak).
//
//   node scripts/page-limits.mjs [generated|trace|mmc_test|zoned ...]
//
// The inputs are the largest the bounds accept (issue 32): 256 libaio clones of 512 B randrw on
// CQE, time-based (stopped at the 10 M I/O budget); a 2 MiB fio iolog (the page's largest
// trace) of 64 MiB reads and writes, each split into 128 requests at max_req_kib=512, replayed
// 32 deep (the page's replay job, loops=1); mmc_test=37 with size=19g
// (79.7 M estimated events); 10 M random 512 B writes in 4 KiB zones, 4096 open.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, start } from '../tests/e2e/harness.mjs';
import { openPage, runToEnd } from '../tests/e2e/tools_harness.mjs';

/** An fio v2 iolog of alternating reads and writes of `len` bytes, `bytes` long at most. */
function iolog(bytes, len) {
    const lines = ['fio version 2 iolog', '/dev/mmcblk0 add', '/dev/mmcblk0 open'];
    let n = lines.join('\n').length + 30;
    for (let i = 0; ; i++) {
        const line = `/dev/mmcblk0 ${i % 2 ? 'write' : 'read'} ${(i * len) % 2 ** 34} ${len}`;
        if (n + line.length + 1 > bytes) break;
        lines.push(line);
        n += line.length + 1;
    }
    lines.push('/dev/mmcblk0 close');
    return lines.join('\n') + '\n';
}

function traceFile() {
    const dir = path.join(root, 'target', 'e2e-inputs');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'largest.iolog');
    writeFileSync(file, iolog(2 << 20, 64 << 20));
    return file;
}

const INPUTS = {
    generated: { query: '?platform=unisoc-hsq-2023&mmc_path=cqe&rw=randrw&bs=512&numjobs=256&ioengine=libaio&iodepth=4&time_based=1&runtime=24h' },
    trace: { query: '?bs=4k', trace: true },
    mmc_test: { query: '?mmc_test=37&size=19g' },
    zoned: { query: '?rw=randwrite&bs=512&size=5000000k&zonemode=zbd&zonesize=4k&max_open_zones=4096' },
};

const mib = (b) => (b / (1 << 20)).toFixed(1);

/** CPU seconds of the renderer processes so far (all of them: one page is open at a time). */
async function rendererCpu(browserCdp) {
    const { processInfo } = await browserCdp.send('SystemInfo.getProcessInfo');
    return processInfo.filter((p) => p.type === 'renderer').reduce((s, p) => s + p.cpuTime, 0);
}

async function measure(env, browserCdp, name, input) {
    const { page, problems, close } = await openPage(env, input.query);
    if (input.trace) {
        await page.setInputFiles('#trace-open', traceFile());
        await page.waitForFunction(() => /Loaded largest\.iolog/.test(document.querySelector('#trace-status')?.textContent ?? ''),
            null, { timeout: 60_000 });
    }
    const notices = await page.$$eval('.notice, .field-error, #trace-error', (n) => n.map((e) => e.textContent));
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const metric = async (k) => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === k).value;
    let heap = await metric('JSHeapUsedSize');
    let sampling = true;
    const sampler = (async () => {
        while (sampling) {
            heap = Math.max(heap, await metric('JSHeapUsedSize').catch(() => 0));
            await new Promise((r) => setTimeout(r, 200));
        }
    })();
    const task0 = await metric('TaskDuration');
    const cpu0 = await rendererCpu(browserCdp);
    const t0 = Date.now();
    await runToEnd(page, 1_800_000);
    const wall = (Date.now() - t0) / 1000;
    const cpu = (await rendererCpu(browserCdp)) - cpu0;
    const task = (await metric('TaskDuration')) - task0;
    sampling = false;
    await sampler;
    const { result: proto } = await cdp.send('Runtime.evaluate', { expression: 'WebAssembly.Memory.prototype' });
    const { objects } = await cdp.send('Runtime.queryObjects', { prototypeObjectId: proto.objectId });
    const { result: wasm } = await cdp.send('Runtime.callFunctionOn', {
        objectId: objects.objectId,
        functionDeclaration: 'function () { return this.reduce((s, m) => s + m.buffer.byteLength, 0); }',
        returnByValue: true,
    });
    const ios = await page.textContent('#results [data-metric=ios] td').catch(() => '?');
    const mibs = await page.textContent('#results [data-metric=total-mib-s] .value').catch(() => '?');
    console.log(`${name}\t${input.query}${input.trace ? ' + 2 MiB iolog' : ''}\twall ${wall.toFixed(1)} s\t`
        + `renderer CPU ${cpu.toFixed(1)} s\tmain-thread tasks ${task.toFixed(1)} s\tpeak JS heap ${mib(heap)} MiB\t`
        + `wasm memory ${mib(wasm.value)} MiB\tI/Os ${ios.trim()}\t${mibs.trim()} MiB/s`
        + (notices.length ? `\tnotices: ${notices.join(' | ')}` : '')
        + (problems.length ? `\tproblems: ${problems.join(' | ')}` : ''));
    await close();
}

const env = await start();
try {
    const browserCdp = await env.browser.newBrowserCDPSession();
    const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(INPUTS);
    for (const name of names) {
        if (!INPUTS[name]) throw new Error(`${name}: not an input; accepted: ${Object.keys(INPUTS).join(', ')}`);
        await measure(env, browserCdp, name, INPUTS[name]);
    }
} finally {
    await env.close();
}
