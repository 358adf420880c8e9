// The tour step's figures of readouts (spans of #tour-see naming a readout: data-readout) and
// what those readouts show on screen: shared by the course walk (Next only) and the tours'
// button walk (each step's own button). A press sentence's figures (data-next-readout) are of
// the next step's screen; the clock is watched for going back within a lesson.
import assert from 'node:assert/strict';

/** The step's figures of readouts, and what those readouts show now. */
export function figures(page) {
    return page.$$eval('#tour-see [data-readout]', (spans) => spans.map((s) => {
        const id = s.dataset.readout;
        const shown = document.querySelector(`[data-readout="${id}"]:not(.fig)`);
        return { id, text: s.textContent.trim(), shown: shown?.textContent.trim() ?? null };
    }));
}

/** Waits until step `k` shows its text (the view stands where the step reads it: its moment,
 * or the end of the run) and the view stands still with every figure of the step equal to its
 * readout; fails naming the figures that differ. Returns how many figures it compared. */
export async function settled(page, k, where) {
    try {
        await page.waitForSelector(`#tour[data-step="${k}"][data-arrived="true"]`, { timeout: 90_000 });
    } catch {
        assert.fail(`${where}: the step's text never showed: ${await page.textContent('#tour-see')}`);
    }
    // A text without figures may be read while the view plays (the first step, over the
    // landing's run).
    if ((await figures(page)).length === 0) return 0;
    try {
        await page.waitForFunction(() => {
            if (document.querySelector('#play')?.getAttribute('aria-pressed') !== 'false') return false;
            return [...document.querySelectorAll('#tour-see [data-readout]')].every((s) => {
                const shown = document.querySelector(`[data-readout="${s.dataset.readout}"]:not(.fig)`);
                return shown && shown.textContent.trim() === s.textContent.trim();
            });
        }, null, { timeout: 90_000 });
    } catch {
        assert.fail(`${where}: ${await page.textContent('#tour-see')} ${JSON.stringify(await figures(page))}`);
    }
    const figs = await figures(page);
    for (const f of figs) assert.equal(f.text, f.shown, `${where}: ${f.id}`);
    return figs.length;
}

/** The figures of the step's press sentence, of the screen the next step stands at. */
export function nextFigures(page) {
    return page.$$eval('#tour-press [data-next-readout]', (spans) => spans.map((s) => ({ id: s.dataset.nextReadout, text: s.textContent.trim() })));
}

/** Once the next step (`k`) has settled: each figure `said` by the step before's press
 * sentence is what its readout shows now. Returns how many it compared. */
export async function settledNext(page, said, where) {
    if (said.length === 0) return 0;
    const same = (figs) => figs.every((f) => document.querySelector(`[data-readout="${f.id}"]:not(.fig)`)?.textContent.trim() === f.text);
    try {
        await page.waitForFunction(same, said, { timeout: 30_000 });
    } catch {
        const shown = await page.evaluate((figs) => figs.map((f) => document.querySelector(`[data-readout="${f.id}"]:not(.fig)`)?.textContent.trim() ?? null), said);
        assert.fail(`${where}: the press sentence before said ${JSON.stringify(said)}; the screen shows ${JSON.stringify(shown)}`);
    }
    return said.length;
}

/** Watches the clock (#sim-clock's data-ns) every 10 ms: a time earlier than the one before,
 * with the pair unchanged (#watch's data-pair, its link less the tour's step: a new pair runs
 * from time 0, a new run, not time going back), is recorded with the step it happened at. */
export async function watchClock(page) {
    await page.evaluate(() => {
        const w = { last: 0, title: null, back: [] };
        window.__clock = w;
        setInterval(() => {
            const c = document.querySelector('#sim-clock');
            if (!c) return;
            const ns = Number(c.dataset.ns);
            const q = new URLSearchParams(document.querySelector('#watch')?.dataset.pair ?? '');
            q.delete('tour');
            q.delete('step');
            const title = q.toString();
            const step = document.querySelector('#tour')?.dataset.step;
            if (ns < w.last && title === w.title) w.back.push({ from: w.last, to: ns, step });
            w.last = ns;
            w.title = title;
        }, 10);
    });
}

/** A lesson starts: standing at time 0, paused (its first step); from here the clock may not
 * go back. */
export async function lessonStarts(page) {
    await page.waitForFunction(() => document.querySelector('#sim-clock')?.dataset.ns === '0'
        && document.querySelector('#play')?.getAttribute('aria-pressed') === 'false', null, { timeout: 90_000 });
    await page.evaluate(() => { window.__clock.back = []; window.__clock.last = 0; });
}

/** Fails if the clock went back since the lesson started. */
export async function clockForward(page, where) {
    const back = await page.evaluate(() => window.__clock.back);
    assert.deepEqual(back, [], `${where}: the clock went back within the lesson`);
}
