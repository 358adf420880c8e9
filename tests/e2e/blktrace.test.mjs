// End-to-end test (issue 48 item 7): a binary blktrace run's per-CPU files opened together in
// the trace panel are read together, merged by time, as the CLI reads DEV.blktrace.0 and its
// siblings; one file alone says how to add the others. On the release build in dist/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root, start, openPage } from './tools_harness.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

/** A `blk_io_trace` record, little-endian: an issue of a 4 KiB read at `sector` on 179,0 by
 * CPU `cpu`, `t` ns into the trace. */
function issue(t, sector, cpu) {
    const b = Buffer.alloc(48);
    b.writeUInt32LE((0x65617400 | 7) >>> 0, 0);
    b.writeBigUInt64LE(BigInt(t), 8);
    b.writeBigUInt64LE(BigInt(sector), 16);
    b.writeUInt32LE(4096, 24);
    b.writeUInt32LE(7, 28);
    b.writeUInt32LE(100, 32);
    b.writeUInt32LE(179 << 20, 36);
    b.writeUInt32LE(cpu, 40);
    return b;
}

function file(name, bytes) {
    const dir = path.join(root, 'target', 'e2e-inputs');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, name), bytes);
    return path.join(dir, name);
}

test("a blktrace run's CPU files opened together replay together", async () => {
    const { page, problems, close } = await openPage(env, '?rw=randread&size=64k');
    const cpu0 = file('mmcblk0.blktrace.0', Buffer.concat([issue(1000, 0, 0), issue(3000, 8, 0)]));
    const cpu1 = file('mmcblk0.blktrace.1', issue(2000, 64, 1));
    await page.setInputFiles('#trace-open', cpu0);
    await page.waitForSelector('#trace-status');
    assert.match(await page.textContent('#trace-status'),
        /: 2 reads, 0 writes .*binary blktrace: only mmcblk0\.blktrace\.0 was read, one CPU's records: a run's other CPUs' files \(mmcblk0\.blktrace\.1, \.\.\.\) are read when opened \(or dropped\) together with it\. Press Run/);
    await page.setInputFiles('#trace-open', [cpu1, cpu0]);
    await page.waitForFunction(() => /2 CPU files read/.test(document.querySelector('#trace-status')?.textContent ?? ''));
    assert.match(await page.textContent('#trace-status'), /: 3 reads, 0 writes .*binary blktrace: 2 CPU files read \(0, 1\)\. Press Run/);
    assert.deepEqual(problems, []);
    await close();
});
