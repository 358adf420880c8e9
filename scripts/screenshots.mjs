// Screenshots of the lesson: the landing and a tour step at 1366x768 and 1280x720, written to
// the directory given (default target/screenshots; `make screenshots` writes docs/).
//   node scripts/screenshots.mjs [dir]     (needs `trunk build --release` output in dist/)
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { root, start } from '../tests/e2e/harness.mjs';

const dir = path.resolve(process.argv[2] ?? path.join(root, 'target', 'screenshots'));
await mkdir(dir, { recursive: true });
const env = await start();
try {
    for (const [w, h] of [[1366, 768], [1280, 720]]) {
        const page = await env.browser.newPage({ viewport: { width: w, height: h } });
        await page.goto(env.base);
        await page.waitForSelector('#start-tour', { timeout: 30_000 });
        await page.waitForTimeout(2500);
        await page.screenshot({ path: path.join(dir, `landing-${w}x${h}.png`) });
        await page.click('#start-tour');
        await page.waitForSelector('#tour');
        for (let i = 0; i < 2; i++) { await page.click('#tour-act'); await page.waitForTimeout(1500); }
        await page.click('#tour-act');
        await page.waitForTimeout(300);
        await page.screenshot({ path: path.join(dir, `tour-${w}x${h}.png`) });
        await page.close();
    }
    console.log(`screenshots in ${dir}`);
} finally {
    await env.close();
}
