// End-to-end test of the course's check (release build in dist/): a lecturer's link (`check=1`)
// asks three questions before lesson 1, keeps the answers and the predictions made along the way
// in the browser, asks the same three at the end of the last lesson, then shows the score before
// and after and the lessons to revisit. A bad `check=` value gets one notice and the page loads.
// No timing is asserted: waits only wait.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshotPath, start } from './harness.mjs';

let env;

before(async () => {
    env = await start();
});
after(async () => { await env?.close(); });

const LONG = { timeout: 90_000 };

/** Answers the question shown of the check's `phase` with `choice` (null: Skip). */
async function answer(page, phase, q, choice) {
    await page.waitForSelector(`#check[data-phase="${phase}"] .check-q[data-q="${q}"]`, LONG);
    if (choice === null) await page.click('#check-skip');
    else await page.click(`.check-q[data-q="${q}"] .check-choice[data-choice="${choice}"]`);
}

test("a lecturer's link: three questions before lesson 1, predictions along the way, the same three after the last lesson, before/after and the lessons to revisit", async () => {
    const { page, problems } = await openPage(env.browser, env.base, '?check=1', { viewport: { width: 1366, height: 768 } });
    // In place of the landing's sentences: the first question, the landing's pair on screen.
    await page.waitForSelector('#check[data-phase="before"] .check-q[data-q="1"]', LONG);
    assert.equal(await page.$('#tour'), null, 'no tour before the questions');
    assert.match(await page.textContent('#check'), /stay in this browser/);
    await page.screenshot({ path: await screenshotPath('check-before-1366x768.png') });
    // As a lecturer projects it (Present, 1280x720).
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.click('#present');
    await page.screenshot({ path: await screenshotPath('check-before-present-1280x720.png') });
    await page.click('#present');
    await page.setViewportSize({ width: 1366, height: 768 });
    const picks = { before: [0, null, 1], after: [2, 2, 0] };
    for (let q = 0; q < 3; q++) await answer(page, 'before', q + 1, picks.before[q]);
    await page.waitForSelector('#check-start');
    assert.match(await page.textContent('#check'), /come back at the end of lesson 8/);
    await page.click('#check-start');
    await page.waitForSelector('#tour[data-tour="sprd-hs400es-2020"][data-step="1"]');
    assert.match(page.url(), /[?&]check=1(&|#|$)/, 'the link keeps the check on');
    assert.equal(await page.$('#check'), null, 'no check panel during a lesson');

    // A prediction along the way (lesson 4): "about the same". Whether it was the closest, the
    // answer after the run says.
    await page.goto(`${env.base}?tour=unisoc-hsq-2023&step=4&check=1`);
    await page.waitForSelector('#tour[data-step="4"] .predict', LONG);
    await page.click('.predict[data-choice="0"]');
    await page.waitForSelector('#tour[data-step="5"]');
    await page.click('#tour-act');
    await page.waitForSelector('#tour[data-step="6"] #tour-answer', LONG);
    const missed = !/^You predicted "[^"]+"\. Right \(/.test(await page.textContent('#tour-answer'));

    // The last lesson's last step (a link past the last step stands at the last).
    await page.goto(`${env.base}?tour=kernel-upgrade&step=99&check=1`);
    await page.waitForSelector('#tour[data-tour="kernel-upgrade"] #check[data-phase="after"]', LONG);
    assert.match(await page.textContent('.tour-head'), /^Lesson 8 of 8 · /);
    const head = (await page.textContent('.tour-head')).match(/step (\d+) of (\d+)/);
    assert.equal(head[1], head[2], 'the check shows at the last step');
    for (let q = 0; q < 3; q++) await answer(page, 'after', q + 1, picks.after[q]);
    await page.waitForSelector('#check-result', LONG);
    await page.locator('#check-result').scrollIntoViewIfNeeded();
    await page.screenshot({ path: await screenshotPath('check-after-1366x768.png') });

    // The right answers as the results give them (the simulation's closest choice), and the
    // score and the lessons to revisit that follow from the picks.
    const items = await page.$$eval('.check-list li', (lis) => lis.map((li) => ({ text: li.textContent, right: Number(li.dataset.right) })));
    assert.equal(items.length, 3);
    const QUESTION_LESSONS = ['sprd-hs400es-2020', 'unisoc-fua-2022', 'io-schedulers'];
    const rights = items.map((i) => i.right);
    for (let q = 0; q < 3; q++) {
        const word = (p) => (p === null ? 'skipped' : p === rights[q] ? 'right' : 'wrong');
        assert.match(items[q].text, new RegExp(`before ${word(picks.before[q])}, after ${word(picks.after[q])};`), items[q].text);
    }
    const right = (ps) => ps.filter((p, q) => p === rights[q]).length;
    const skipped = (ps) => ps.filter((p) => p === null).length;
    const phrase = (ps) => `${right(ps)} of 3 right${skipped(ps) ? ` (${skipped(ps)} skipped)` : ''}`;
    assert.equal(await page.textContent('#check-score'), `Before the course: ${phrase(picks.before)}. After: ${phrase(picks.after)}.`);
    assert.equal(await page.textContent('#check-predictions'),
        `Predictions you made along the way: ${missed ? 0 : 1} of 1 the choice closest to what the simulation computed.`);
    const COURSE = ['sprd-hs400es-2020', 'hsq-intro-2020', 'u300-mmci-2011', 'unisoc-hsq-2023', 'fifo-dispatch-2022', 'unisoc-fua-2022', 'io-schedulers', 'kernel-upgrade'];
    const want = COURSE.filter((id) => (missed && id === 'unisoc-hsq-2023')
        || QUESTION_LESSONS.some((l, q) => l === id && picks.after[q] !== null && picks.after[q] !== rights[q]));
    const shown = await page.$$eval('.check-revisit', (bs) => bs.map((b) => b.dataset.lesson));
    assert.deepEqual(shown, want);
    assert.ok(want.length > 0, 'the picks make at least one lesson to revisit');

    // A lesson to revisit opens at its first step.
    await page.click(`.check-revisit[data-lesson="${want[0]}"]`);
    await page.waitForSelector(`#tour[data-tour="${want[0]}"][data-step="1"]`, LONG);
    assert.deepEqual(problems, []);
    await page.close();
});

test('pressing only Next never meets the check: the landing offers it, and its button opens it in the whole app', async () => {
    const { page, problems } = await openPage(env.browser, env.base, '', { viewport: { width: 390, height: 844 } });
    assert.equal(await page.$('#check'), null);
    await page.waitForSelector('#check-first');
    await page.click('#check-first');
    await page.waitForSelector('#check[data-phase="before"] .check-q[data-q="1"]', LONG);
    assert.match(page.url(), /[?&]check=1(&|#|$)/);
    await page.screenshot({ path: await screenshotPath('check-before-390x844.png'), fullPage: false });
    for (let q = 1; q <= 3; q++) await answer(page, 'before', q, null);
    await page.waitForSelector('#check-start');
    // At the end of the last lesson on the phone: the same questions, then the results.
    await page.goto(`${env.base}?tour=kernel-upgrade&step=99&check=1`);
    await page.waitForSelector('#check[data-phase="after"] .check-q[data-q="1"]', LONG);
    await page.locator('#check').scrollIntoViewIfNeeded();
    await page.screenshot({ path: await screenshotPath('check-after-question-390x844.png') });
    for (let q = 1; q <= 3; q++) await answer(page, 'after', q, 1);
    await page.waitForSelector('#check-result', LONG);
    assert.match(await page.textContent('#check-score'), /^Before the course: 0 of 3 right \(3 skipped\)\. After: [0-3] of 3 right\.$/);
    assert.equal(await page.textContent('#check-predictions'), 'You made no prediction with the check on.');
    await page.locator('#check-result').scrollIntoViewIfNeeded();
    await page.screenshot({ path: await screenshotPath('check-after-390x844.png') });
    assert.deepEqual(problems, []);
    await page.close();
});

test('the course\'s end offers the check it promised: one press shows the questions under the last step', async () => {
    const { page, problems } = await openPage(env.browser, env.base, '?tour=kernel-upgrade&step=99', { viewport: { width: 1366, height: 768 } });
    await page.waitForSelector('#tour[data-tour="kernel-upgrade"] #check-learned', LONG);
    assert.equal(await page.$('#check'), null, 'no questions before the press');
    assert.match(await page.textContent('#tour-next'), /^Back to lesson 1: /);
    await page.click('#check-learned');
    await page.waitForSelector('#check[data-phase="after"] .check-q[data-q="1"]', LONG);
    assert.equal(await page.$('#check-learned'), null);
    assert.deepEqual(problems, []);
    await page.close();
});

test('a malformed check value gets one notice and the page loads (the landing, or the tour the link names)', async () => {
    for (const [query, ready] of [['?check=maybe', '#start-tour'], ['?tour=unisoc-hsq-2023&step=2&check=perhaps', '#tour[data-step="2"]']]) {
        const { page, problems } = await openPage(env.browser, env.base, query, { viewport: { width: 1280, height: 720 } });
        await page.waitForSelector(ready, LONG);
        const notices = await page.$$eval('.notice', (ns) => ns.map((n) => n.textContent));
        assert.equal(notices.length, 1, JSON.stringify(notices));
        assert.match(notices[0], /^URL: check: '(maybe|perhaps)' is neither on nor off; accepted: 1 .* or 0 \(view key left out\)$/);
        assert.equal(await page.$('#check'), null, 'the check stays off');
        if (query === '?check=maybe') await page.screenshot({ path: await screenshotPath('check-bad-link-1280x720.png') });
        assert.deepEqual(problems, []);
        await page.close();
    }
});
