// End-to-end test of the tours as a course (release build in dist/): a student who starts the
// landing's tour and presses nothing but Next meets every series' lesson, and at every step each
// figure the text gives of a readout (its span names the readout: data-readout) is what that
// readout shows on screen once the view stands where the step says; each count a press sentence
// names (data-next-readout: "A has completed 16 requests, B 48") is what the next step's screen
// shows; and within a lesson the clock never goes back.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshotPath, start } from './harness.mjs';
import { clockForward, lessonStarts, nextFigures, settled, settledNext, watchClock } from './figures.mjs';

let env;

before(async () => {
    env = await start();
});
after(async () => { await env?.close(); });

const SERIES = ['sprd-hs400es-2020', 'unisoc-fua-2022', 'u300-mmci-2011', 'unisoc-hsq-2023', 'hsq-intro-2020', 'fifo-dispatch-2022', 'io-schedulers', 'kernel-upgrade'];

/** A student who presses only Next through the whole course at `width` x `height` (in Present
 * when `present`); `shots`: the file name's tail of each lesson's first and last step's
 * screenshot, or null. */
async function walk(width, height, present, shots) {
    const { page, problems } = await openPage(env.browser, env.base, '', { viewport: { width, height } });
    if (present) await page.click('#present');
    await watchClock(page);
    await page.click('#start-tour');
    await page.waitForSelector('#tour[data-tour="sprd-hs400es-2020"][data-step="1"]');
    // The landing's tour is the course's first lesson.
    assert.match(await page.textContent('.tour-head'), new RegExp(`^Lesson 1 of ${SERIES.length} · `));
    const met = [];
    let compared = 0;
    let counts = 0;
    for (let lesson = 0; lesson < SERIES.length; lesson++) {
        const id = await page.getAttribute('#tour', 'data-tour');
        met.push(id);
        assert.match(await page.textContent('.tour-head'), new RegExp(`^Lesson ${lesson + 1} of ${SERIES.length} · `), id);
        const n = Number((await page.textContent('.tour-head')).match(/step \d+ of (\d+)/)[1]);
        // The lesson's glossary terms link into the glossary.
        const terms = await page.$$eval('#tour-terms a', (as) => as.map((a) => a.getAttribute('href')));
        assert.ok(terms.length >= 3, `${id}: ${terms.length} glossary terms`);
        for (const href of terms) assert.ok(await page.$(href), `${id}: ${href} is in the glossary`);
        let said = [];
        for (let k = 1; k <= n; k++) {
            await page.waitForSelector(`#tour[data-tour="${id}"][data-step="${k}"]`);
            const where = `${id} step ${k}`;
            // The lesson starts at time 0; from there time moves only forward.
            if (k === 1) await lessonStarts(page);
            // The step's text once the view stands where it reads (while the view runs to a
            // moment the step says so instead): each figure in it is its readout, and each
            // count the step before promised is on screen.
            compared += await settled(page, k, where);
            counts += await settledNext(page, said, where);
            said = await nextFigures(page);
            await clockForward(page, where);
            assert.ok(!(await page.isDisabled('#tour-next')), `${where}: Next is no dead end`);
            // Every lesson's first and last step as the student sees it (docs/ with make
            // screenshots: what the closing notes describe lesson by lesson).
            if (shots && (k === 1 || k === n)) {
                // The last step stands at the end of the run: once the view got there.
                if (k === n) await page.waitForSelector('#play[aria-pressed="false"]', { timeout: 90_000 });
                await page.screenshot({ path: await screenshotPath(`course-${lesson + 1}-${k === 1 ? 'first' : 'last'}-${shots}.png`) });
            }
            if (k < n) {
                await page.click('#tour-next');
            }
        }
        // The last step offers the next lesson; the course's last, the check it promised and
        // the way back to lesson 1.
        const next = await page.getAttribute('#tour-next', 'data-next');
        const end = lesson === SERIES.length - 1;
        assert.match(await page.textContent('#tour-next'), end ? /^Back to lesson 1: / : /^Next lesson: /);
        assert.equal(await page.$('#check-learned') !== null, end, `${id}: the check is offered at the course's end only`);
        await page.click('#tour-next');
        // The scheduler lesson loads the whole app first (the landing's build has no bfq).
        await page.waitForSelector(`#tour[data-tour="${next}"][data-step="1"]`, { timeout: 90_000 });
    }
    assert.deepEqual([...met].sort(), [...SERIES].sort(), `met: ${met.join(', ')}`);
    assert.equal(await page.getAttribute('#tour', 'data-tour'), met[0], 'the course comes round to where it started');
    console.log(`course at ${width}x${height}${present ? ' (Present)' : ''}: ${met.join(' -> ')}; ${compared} figures equal to their readouts, ${counts} promised counts on the next screen`);
    assert.ok(compared >= 40, `${compared} figures compared`);
    assert.ok(counts >= 24, `${counts} promised counts compared`);
    assert.deepEqual(problems, []);
    await page.close();
}

test('pressing only Next walks every tour to its end and on through all eight lessons (the landing hands over to the whole app for the bfq of the scheduler lesson); each figure in a step is its readout', async () => {
    await walk(1366, 768, false, '1366x768');
});

test('the same walk in Present at 1280x720 (a lecturer) and on a 390x844 phone', async () => {
    await walk(1280, 720, true, null);
    await walk(390, 844, false, null);
});

test('the answer to the prediction waits for Run to the end', async () => {
    const { page, problems } = await openPage(env.browser, env.base, '?tour=unisoc-hsq-2023&step=4', { viewport: { width: 1366, height: 768 } });
    await page.waitForSelector('#tour[data-step="4"] .predict');
    await page.click('.predict[data-choice="1"]');
    await page.waitForSelector('#tour[data-step="5"]');
    assert.equal(await page.$('#tour-answer'), null, 'no answer before the run');
    await page.click('#tour-act');
    await page.waitForSelector('#tour[data-step="6"] #tour-answer', { timeout: 90_000 });
    assert.match(await page.textContent('#tour-answer'), /^You predicted "B 2x faster"\. .*Simulated: A [\d.]+ MiB\/s, B [\d.]+ MiB\/s/);
    assert.deepEqual(problems, []);
    await page.close();
});

test('a link to a tour step stands where the step says: its figures are the readouts', async () => {
    const { page, problems } = await openPage(env.browser, env.base, '?tour=sprd-hs400es-2020&step=3', { viewport: { width: 1366, height: 768 } });
    assert.ok(await settled(page, 3, 'link to step 3') >= 5);
    assert.ok(await page.$('#tour-see [data-readout="clock"]'), 'the step reads the clock');
    assert.deepEqual(problems, []);
    await page.close();
});

test('Try it yourself opens the Lab far below the tour; a dock brings the tour and its Next lesson back', async () => {
    const { page, problems } = await openPage(env.browser, env.base, '?tour=unisoc-hsq-2023&step=9', { viewport: { width: 1366, height: 768 } });
    await page.waitForSelector('#tour[data-step="9"]');
    assert.equal(await page.$('#tour-dock'), null, 'no dock before the Lab is opened');
    assert.match(await page.textContent('#tour-act'), /^Try /);
    await page.click('#tour-act');
    await page.waitForSelector('#tour-dock', { state: 'visible' });
    // One press runs what the button names (issue 50): the pair in the link, played to its end.
    assert.match(page.url(), /[?&]b\./, 'B is in the link');
    await page.waitForFunction(() => document.querySelector('[role=progressbar]')?.getAttribute('aria-valuenow') === '100',
        null, { timeout: 120_000 });
    const inView = (sel) => page.evaluate((s) => {
        const r = document.querySelector(s).getBoundingClientRect();
        return r.bottom > 0 && r.top < innerHeight;
    }, sel);
    await page.waitForFunction(() => document.querySelector('#lab').getBoundingClientRect().top < innerHeight / 2);
    assert.equal(await inView('#tour-next'), false, 'the Lab is in view, the tour is not');
    assert.equal(await inView('#tour-dock-back'), true, 'the way back is');
    await page.click('#tour-dock-back');
    await page.waitForFunction(() => {
        const r = document.querySelector('#tour-next').getBoundingClientRect();
        return r.bottom > 0 && r.top < innerHeight;
    });
    assert.match(await page.textContent('#tour-next'), /^Next lesson: /);
    assert.equal(await page.$('#tour-dock'), null, 'the dock goes once taken');
    assert.deepEqual(problems, []);
    await page.close();
});

/** Each lesson's own buttons pressed in turn (the prediction answered, Play watched for a
 * moment) at `width` x `height` (in Present when `present`): after each button the next step's
 * figures, once the view stands where that step reads them, are the readouts on screen. */
async function buttons(width, height, present) {
    let compared = 0;
    for (const series of SERIES) {
        const { page, problems } = await openPage(env.browser, env.base, `?tour=${series}&step=1`, { viewport: { width, height } });
        if (present) await page.click('#present');
        await watchClock(page);
        await page.waitForSelector(`#tour[data-tour="${series}"][data-step="1"]`, { timeout: 90_000 });
        await lessonStarts(page);
        const n = Number((await page.textContent('.tour-head')).match(/step \d+ of (\d+)/)[1]);
        for (let k = 1; k < n; k++) {
            await page.waitForSelector(`#tour[data-step="${k}"]`);
            const where = `${series} at ${width}x${height} step ${k}`;
            assert.ok(await page.isVisible('#tour-see'), `${where}: the step's text`);
            if (await page.$('.predict')) {
                await page.click('.predict[data-choice="2"]');
                continue;
            }
            const label = await page.textContent('#tour-act');
            const said = await nextFigures(page);
            await page.click('#tour-act');
            await clockForward(page, `${where} after "${label}"`);
            // Play and Show stay on the step that explains what they show, until Next
            // (issue 50: the outlined column showed only under the next step's question).
            if (/^(Play|Replay|Show the column)/.test(label)) {
                // The column outlined while its explanation is still on screen.
                if (/^Show the column/.test(label)) {
                    await page.waitForSelector('#watch g.stage.focused', { state: 'attached', timeout: 10_000 })
                        .catch(() => assert.fail(`${where}: "${label}" outlines no column`));
                }
                else await page.waitForTimeout(300);
                assert.equal(await page.getAttribute('#tour', 'data-step'), String(k), `${where}: "${label}" stays on its step`);
                await page.click('#tour-next');
            }
            compared += await settled(page, k + 1, `${where} after "${label}"`);
            compared += await settledNext(page, said, `${where} after "${label}"`);
            await clockForward(page, `${where} after "${label}"`);
        }
        assert.match(await page.textContent('#tour-act'), /^Try /, `${series}: the last step offers the Lab`);
        assert.deepEqual(problems, []);
        await page.close();
    }
    console.log(`buttons at ${width}x${height}${present ? ' (Present)' : ''}: ${compared} figures equal to their readouts`);
    assert.ok(compared >= 20, `${compared} figures compared`);
}

test("each step's own button in every lesson, in Present at 1280x720 and on a 390x844 phone: the next step's figures are the readouts", async () => {
    await buttons(1280, 720, true);
    await buttons(390, 844, false);
});
