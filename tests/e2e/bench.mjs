// Browser benchmark of "Watch the pipeline" (`make bench-web`; not a test: it asserts nothing).
// For a few scenarios and speeds it plays the release build in dist/ for a while and prints
// the app's own frame-time figures (#frame-stats: from the animation frame's start to the end
// of its render, i.e. engine step + pipeline, strip and chart drawing) and the real frame rate
// (requestAnimationFrame callbacks per second).
import { start, openPage, frameStats, measureFps, firstFrame } from './harness.mjs';

const PLAY_MS = Number(process.env.BENCH_MS ?? 6000);
// A query string of its own for the default scenario: without one the page opens the landing
// lesson, already playing.
const CASES = [
    // The landing plays by itself at the speed it derives to follow a request (200 µs/s).
    { name: 'the landing (its A/B pair as it plays itself, 200 µs/s)', query: '', speed: null },
    { name: 'default scenario, 1 ms/s (normal speed)', query: '?numjobs=1', speed: '4' },
    { name: 'default scenario, as fast as possible', query: '?numjobs=1', speed: '8' },
    { name: '20 jobs packed=8 vs packed=0 (A/B), 1 ms/s', query: '?numjobs=20&packed=8&b.packed=0', speed: '4' },
    { name: '20 jobs packed=8 vs packed=0 (A/B), as fast as possible', query: '?numjobs=20&packed=8&b.packed=0', speed: '8' },
    { name: '8 jobs 4 KiB randwrite, dynamic depth vs 2 (A/B), 1 ms/s', query: '?platform=unisoc-hsq-2023&rw=randwrite&numjobs=8&b.hsq_depth=2', speed: '4' },
];

const env = await start();
// The first screen as a first visitor gets it (README "Loading"): three fresh visits.
const visits = [];
for (let i = 0; i < 3; i++) visits.push(await firstFrame(env));
visits.sort((a, b) => a.ms - b.ms);
console.log(`first animated frame of the landing (fresh browser context, compressed as make serve-dist sends it): ${visits[0].bytes} bytes before it; `
    + `${visits.map((v) => v.ms.toFixed(0)).join(', ')} ms after navigation (3 visits)`);
console.log(`  files: ${visits[0].files.join(', ')}`);
console.log(`frame time per animation frame, ${PLAY_MS / 1000} s of play each (target: < 8 ms of engine + drawing per frame; the machine's load average shows how busy the cores were)`);
console.log(`load average: ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')}`);
console.log('| scenario | frames | avg ms | p50 ms | p95 ms | max ms | of which engine | of which reading the picture | fps |');
console.log('|---|---|---|---|---|---|---|---|---|');
try {
    for (const c of CASES) {
        const { page, problems } = await openPage(env.browser, env.base, c.query);
        await page.mouse.move(2, 2);
        if (c.speed) {
            await page.selectOption('#speed', c.speed);
            await page.click('#play');
        }
        const fps = await measureFps(page, PLAY_MS);
        if ((await page.textContent('#play')).includes('Pause')) await page.click('#play');
        const s = await frameStats(page);
        console.log(`| ${c.name} | ${s.frames} | ${s.avg_ms.toFixed(2)} | ${s.p50_ms.toFixed(2)} | ${s.p95_ms.toFixed(2)} | ${s.max_ms.toFixed(2)} | ${s.engine_avg_ms.toFixed(2)} | ${s.read_avg_ms.toFixed(2)} | ${fps.toFixed(0)} |`);
        if (problems.length) console.log(`  problems: ${problems.join('; ')}`);
        await page.close();
    }
} finally {
    await env.close();
}
