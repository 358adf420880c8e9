// `make bench`: the heaviest seed job (bench/src/lib.rs) natively and compiled to wasm in
// headless Chromium, in one run; prints the event rate of each and their ratio (goal: wasm
// within 1.5x of native). The Makefile builds what is run here:
//   target/release/mmcsim-bench                       native, [profile.release] (opt-level 3)
//   target/bench-wasm/web.wasm                        the page's build: [profile.web] (opt-level
//                                                     "z", LTO, one codegen unit; the engine
//                                                     crate at opt-level 3) + wasm-opt -Oz
//   target/bench-wasm/web-all-z.wasm                  the same with the engine at "z" too (the
//                                                     page's build before the engine override)
//   target/bench-wasm/o3.wasm                         [profile.release] + wasm-opt -O3
// Each side runs MMCSIM_BENCH_ROUNDS times (default 3) and the best round counts. Both sides
// must report the same events, requests and simulated time (the engine is deterministic).
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { root, start } from '../tests/e2e/harness.mjs';

const ROUNDS = Number(process.env.MMCSIM_BENCH_ROUNDS ?? 3);
const GOAL = 1.5;
const VARIANTS = [
    { file: 'web.wasm', name: 'wasm, as the page (engine opt-level 3, the rest z, wasm-opt -Oz)' },
    { file: 'web-all-z.wasm', name: 'wasm, everything at opt-level z (the page before)' },
    { file: 'o3.wasm', name: 'wasm, opt-level 3 (+ wasm-opt -O3)' },
];

// Native.
const out = execFileSync(path.join(root, 'target/release/mmcsim-bench'), {
    encoding: 'utf8',
    env: { ...process.env, MMCSIM_BENCH_ROUNDS: String(ROUNDS) },
});
process.stdout.write(out.split('\n').filter((l) => !l.startsWith('RESULT')).join('\n'));
const kv = Object.fromEntries(out.split('\n').find((l) => l.startsWith('RESULT')).split(' ').slice(1).map((p) => p.split('=')));
const native = {
    events: Number(kv.events),
    requests: Number(kv.requests),
    simulated_ns: Number(kv.simulated_ns),
    best_s: Number(kv.best_s),
};
native.rate = native.events / native.best_s;

// Wasm in headless Chromium (the harness of the end-to-end tests: same binary and flags): the
// module imports nothing; instantiate it in a blank page, time the exported run with
// performance.now().
const env = await start();
const results = [];
try {
    for (const v of VARIANTS) {
        const bytes = await readFile(path.join(root, 'target/bench-wasm', v.file));
        const page = await env.browser.newPage();
        const errors = [];
        page.on('pageerror', (e) => errors.push(e.message));
        page.on('console', (m) => console.log(`  [${v.file}] ${m.text()}`));
        const r = await page.evaluate(async ({ b64, rounds }) => {
            const bin = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
            const { instance } = await WebAssembly.instantiate(bin, {});
            const x = instance.exports;
            let best = Infinity;
            let events = 0n;
            for (let i = 0; i < rounds; i++) {
                const t0 = performance.now();
                events = x.mmcsim_bench_heaviest();
                const ms = performance.now() - t0;
                best = Math.min(best, ms);
                console.log(`round ${i}: ${events} events in ${(ms / 1e3).toFixed(3)} s = ${(Number(events) / ms / 1e3).toFixed(2)} M events/s`);
            }
            return {
                events: Number(events),
                requests: Number(x.mmcsim_bench_requests()),
                simulated_ns: Number(x.mmcsim_bench_simulated_ns()),
                best_s: best / 1e3,
            };
        }, { b64: bytes.toString('base64'), rounds: ROUNDS });
        await page.close();
        if (errors.length) throw new Error(`${v.file}: ${errors.join('; ')}`);
        for (const k of ['events', 'requests', 'simulated_ns']) {
            if (r[k] !== native[k]) throw new Error(`${v.file}: ${k} ${r[k]} in wasm, ${native[k]} natively: not the same run`);
        }
        results.push({ ...v, ...r, size: bytes.length, rate: r.events / r.best_s });
    }
} finally {
    await env.close();
}

const M = (x) => (x / 1e6).toFixed(2);
console.log(`\nheaviest seed job: ${native.requests} requests, ${native.events} events, ${(native.simulated_ns / 1e9).toFixed(3)} s simulated; best of ${ROUNDS} rounds each`);
console.log('| build | wall s | M events/s | native / this |');
console.log('|---|---|---|---|');
console.log(`| native (release: opt-level 3) | ${native.best_s.toFixed(3)} | ${M(native.rate)} | 1.00 |`);
for (const r of results) {
    const ratio = native.rate / r.rate;
    console.log(`| ${r.name}, ${(r.size / 1024).toFixed(0)} KiB | ${r.best_s.toFixed(3)} | ${M(r.rate)} | ${ratio.toFixed(2)}${ratio > GOAL ? ` (goal <= ${GOAL})` : ''} |`);
}
