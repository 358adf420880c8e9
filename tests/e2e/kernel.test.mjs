// End-to-end test of the kernel choice (issue 46) in the release build in dist/: the Lab offers
// the kernels the model carries beside the preset's own; an A/B pair that differs only in kernel
// shows each side's kernel in its title and who issued its requests under it (Linux 6.1: kblockd
// under mq-deadline; 6.12: the reading task itself); a kernel the model does not carry is named
// with the block layer it runs instead.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { start, openPage, screenshotPath } from './harness.mjs';

let env;

before(async () => {
    env = await start();
});
after(async () => { await env?.close(); });

const LONG = { timeout: 120_000 };

/** Runs the Lab's scenario to its end. */
async function runToEnd(page) {
    await page.click('#run');
    await page.waitForFunction(() => document.querySelector('[role=progressbar]')?.getAttribute('aria-valuenow') === '100'
        && document.querySelector('#run'), null, LONG);
}

test('a pair that differs only in kernel: each side names its kernel and who issued its requests', async () => {
    const query = '?platform=unisoc-hsq-2023&ioscheduler=mq-deadline&rw=randread&bs=4k&size=256k&kernel=6.1&b.kernel=6.12';
    const { page, problems } = await openPage(env.browser, env.base, query, { viewport: { width: 1366, height: 768 } }, '#run');
    await runToEnd(page);
    await page.waitForSelector('[data-readout="b.by-task"]', LONG);
    assert.match(await page.textContent('.side.a .pipeline-title'), /Linux 6\.1$/);
    assert.match(await page.textContent('.side.b .pipeline-title'), /Linux 6\.12$/);
    // 256 KiB of 4 KiB psync reads: 64 requests. 6.1 inserts each into mq-deadline and kblockd
    // issues it; 6.12's plug in __submit_bio flushes in the task, which issues it itself.
    const read = async (id) => Number(await page.textContent(`[data-readout="${id}"]`));
    assert.deepEqual([await read('a.by-task'), await read('a.by-kblockd')], [0, 64]);
    assert.deepEqual([await read('b.by-task'), await read('b.by-kblockd')], [64, 0]);
    // The pipeline's blk-mq column says the same.
    // The pipeline's blk-mq column says the same (its counters follow the tokens: they settle
    // once the run stands at its end).
    await page.waitForFunction(() => /^issued: task 0 · kblockd 64/.test(document.querySelector('#a-issued')?.textContent)
        && /^issued: task 64 · kblockd 0/.test(document.querySelector('#b-issued')?.textContent), null, { timeout: 20_000 })
        .catch(async (e) => {
            throw new Error(`${e.message}: ${await page.textContent('#a-issued')} | ${await page.textContent('#b-issued')}`);
        });
    await page.locator('#watch').screenshot({ path: await screenshotPath('kernel-pair-1366x768.png') });
    assert.deepEqual(problems, []);
    await page.close();
});

test('the Lab offers the carried kernels beside the preset\'s own, and the choice goes into the link and the command line', async () => {
    const { page, problems } = await openPage(env.browser, env.base, '?platform=unisoc-hsq-2023&size=256k', {}, '#run');
    const options = await page.$$eval('#ctl-kernel option', (os) => os.map((o) => [o.value, o.textContent]));
    assert.deepEqual(options, [['', 'default (6.6)'], ['6.1', '6.1'], ['6.6', '6.6'], ['6.12', '6.12']]);
    await page.selectOption('#ctl-kernel', '6.12');
    await page.waitForFunction(() => location.search.includes('kernel=6.12'));
    assert.ok((await page.textContent('#command-line')).includes('--kernel=6.12'));
    // The preset's own again: it leaves the link.
    await page.selectOption('#ctl-kernel', '');
    await page.waitForFunction(() => !location.search.includes('kernel='));
    // B's controls in the A/B view have the same choice: a pair that differs only in kernel.
    await page.check('#ab-toggle');
    await page.waitForSelector('#b-ctl-kernel');
    await page.selectOption('#b-ctl-kernel', '6.12');
    await page.waitForFunction(() => location.search.includes('b.kernel=6.12'));
    assert.ok(!new URL(page.url()).search.replace('b.kernel', '').includes('kernel='), 'A keeps the preset\'s kernel');
    assert.deepEqual(problems, []);
    await page.close();
});

test('a kernel the model does not carry is named with the block layer it runs, on the notice and the side', async () => {
    const { page, problems } = await openPage(env.browser, env.base, '?platform=unisoc-hsq-2023&size=256k&kernel=5.10', {}, '#run');
    const notices = await page.$$eval('.notice, .warnings li', (ns) => ns.map((n) => n.textContent).join('\n'));
    assert.match(notices, /the model carries the block layer of Linux 6\.1, 6\.6, 6\.12; 5\.10 runs 6\.1's/);
    await runToEnd(page);
    assert.match(await page.textContent('.side.a .pipeline-title'), /Linux 5\.10 \(6\.1's block layer\)$/);
    assert.deepEqual(problems, []);
    await page.close();
});
