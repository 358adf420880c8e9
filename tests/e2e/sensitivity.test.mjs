// End-to-end test of the Sensitivity panel (issue 47, part 2) on the release build in dist/: on
// the FUA pair of the A/B view, one press runs A and B, then each at both ends of every fitted
// value's range the runs use, in Web Workers, and shows the CLI's ranges and verdict for the
// same pair (`--sweep=fua=0,1 --sensitivity`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { root, start, openPage } from './tools_harness.mjs';

let env;
before(async () => { env = await start(); });
after(async () => { await env?.close(); });

const OPTIONS = {
    platform: 'unisoc-fua-2022', name: 'w', rw: 'randwrite', bs: '4k', sync: '1', direct: '1',
    size: '8m',
};

test('the A/B pair gets the CLI\'s ranges and whether FUA on stays slower', async () => {
    const args = Object.entries(OPTIONS).map(([k, v]) => `--${k}=${v}`);
    const out = execFileSync('cargo', ['run', '-q', '--release', '--bin', 'mmcsim', '--', ...args,
        '--sweep=fua=0,1', '--sensitivity'], {
        cwd: root, encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'],
    });
    const cliLines = out.split('\n').filter((l) => l.startsWith('w '));
    assert.equal(cliLines.length, 4, out);

    const query = '?' + Object.entries(OPTIONS).map(([k, v]) => `${k}=${v}`).join('&') + '&fua=0&b.fua=1';
    const { page, problems, close } = await openPage(env, query);
    await page.click('#sensitivity > summary');
    assert.match(await page.textContent('#sensitivity .hint'), /A and B of the A\/B view/);
    await page.click('#sensitivity-run');
    await page.waitForSelector('#sensitivity-out', { timeout: 180_000 });
    const progress = await page.textContent('#sensitivity-progress');
    assert.match(progress, /^18 of 18 runs done \(6 parameter\(s\) at both ends of their range\)/, progress);
    const text = await page.textContent('#sensitivity-out');
    // The same figures, ranges, verdict and movers as the CLI, line for line.
    for (const line of cliLines) assert.ok(text.includes(line), `page lacks: ${line}\n${text}`);
    assert.match(text, /w IOPS: A .* holds: B lower at every end; moved most by flush_us=200us/);
    assert.match(text, /flush_us +1 us +fitted +range 1\.\.200 us/);
    assert.deepEqual(problems, []);
    await close();
});
