// The tour step's figures of readouts (spans of #tour-see naming a readout: data-readout) and
// what those readouts show on screen: shared by the course walk (Next only) and the tours'
// button walk (each step's own button).
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
