// End-to-end tests of the lesson (release build in dist/): the landing viewport, a full tour
// of every series with the A/B pair on screen, Run and Play sharing one run, links to a moment,
// the scrubber and Step back. Screenshots go to target/screenshots/ (docs/ only through
// `make screenshots`): landing-WxH.png, tour-step-WxH.png, tour-end.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshotPath, start } from './harness.mjs';
import { settled } from './figures.mjs';

let env;

before(async () => {
    env = await start();
});
after(async () => { await env?.close(); });

/** A page on `query` at 1366x768 (or `size`), ready when the Watch's Play is there. */
function open(query, size = { width: 1366, height: 768 }) {
    return openPage(env.browser, env.base, query, { viewport: size });
}

/** The watch clock, ns (from "216.0 µs · 3 %"). */
async function clockNs(page) {
    const t = (await page.textContent('#sim-clock')).split('·')[0].trim();
    const [v, unit] = t.split(/\s+/);
    return Math.round(Number(v) * { 'µs': 1e3, ms: 1e6, s: 1e9 }[unit]);
}

/** The element's box lies inside the viewport (vertically at least `frac` of it) once the page
 *  has settled: a scroll into view or a panel filling in takes longer on a loaded machine, so
 *  this waits (up to 15 s) for what a visitor sees when the page stops moving, then answers. */
async function inView(page, sel, frac = 1) {
    const seen = ({ sel, frac }) => {
        const el = document.querySelector(sel);
        if (!el) return false;
        const r = el.getBoundingClientRect();
        const shown = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
        return r.height > 0 && shown >= frac * r.height - 1 && r.left >= 0 && r.right <= innerWidth + 1;
    };
    try {
        await page.waitForFunction(seen, { sel, frac }, { timeout: 15_000 });
        return true;
    } catch {
        return false;
    }
}

for (const [w, h] of [[1366, 768], [1280, 720]]) {
    test(`landing at ${w}x${h}: sentences, both pipelines and strips, readouts and the tour button, already playing`, async () => {
        const { page, problems } = await open('', { width: w, height: h });
        for (const sel of ['#start-tour', '.lesson-text', '.side.a .pipeline', '.side.b .pipeline',
                           '.side.a .strip', '.side.b .strip', '.side.a .readout', '.side.b .readout']) {
            assert.ok(await inView(page, sel), `${sel} in the first viewport at ${w}x${h}`);
        }
        assert.equal(await page.evaluate(() => scrollY), 0);
        // The pair's text is readable: every visible label of both pipelines is at least
        // 11 CSS px (its font size times the drawing's scale on screen).
        const px = await page.$$eval('.side .pipeline svg text', (texts) => texts
            .filter((t) => t.textContent.trim() && t.getBoundingClientRect().width > 0
                && getComputedStyle(t).display !== 'none')
            .map((t) => ({ s: t.textContent.trim(), px: parseFloat(getComputedStyle(t).fontSize)
                * t.ownerSVGElement.getBoundingClientRect().width / t.ownerSVGElement.viewBox.baseVal.width })));
        assert.ok(px.length >= 30, `${px.length} labels`);
        const min = Math.min(...px.map((p) => p.px));
        console.log(`landing ${w}x${h}: smallest pipeline text ${min.toFixed(1)} CSS px of ${px.length} labels`);
        assert.ok(min >= 11, `pipeline text at least 11 px: ${JSON.stringify(px.filter((p) => p.px < 11).slice(0, 5))}`);
        const t0 = await clockNs(page);
        await page.waitForTimeout(1200);
        const t1 = await clockNs(page);
        assert.ok(t1 > t0, `animating: ${t0} -> ${t1} ns`);
        // Slowly: at the speed derived to follow one request (said beside the controls).
        const [, v, unit] = (await page.textContent('#follow-note')).match(/^Slowed to (\d+) (ns|µs|ms)/);
        const perS = Number(v) * { ns: 1, 'µs': 1e3, ms: 1e6 }[unit];
        assert.ok(perS <= 1_000_000 && t1 - t0 <= 1.5 * perS, `slowly (${v} ${unit}/s): ${t1 - t0} ns in 1.2 s`);
        await page.waitForFunction(() => /\d/.test(document.querySelector('.side.b .readout .per-irq b')?.textContent ?? ''));
        assert.match(await page.textContent('.side.b .readout'), /requests per interrupt · bus busy \d+ %/);
        assert.equal(new URL(page.url()).search, '', 'the landing leaves the URL alone');
        await page.screenshot({ path: await screenshotPath(`landing-${w}x${h}.png`) });
        // The tour starts on the same pair, in the same viewport: play, pause, the cause.
        await page.click('#start-tour');
        await page.waitForSelector('#tour[data-step="1"]');
        // Play and Show stay on their step until Next (issue 50).
        await page.click('#tour-act');
        await page.waitForTimeout(1500);
        await page.click('#tour-next');
        await page.click('#tour-act');
        await page.waitForSelector('#tour[data-step="3"]');
        await page.click('#tour-act');
        await page.click('#tour-next');
        await page.waitForSelector('#tour[data-step="4"]');
        for (const sel of ['#tour', '.side.a .pipeline', '.side.b .pipeline']) {
            assert.ok(await inView(page, sel, 0.9), `${sel} in view during the tour at ${w}x${h}`);
        }
        await page.screenshot({ path: await screenshotPath(`tour-step-${w}x${h}.png`) });
        assert.deepEqual(problems, []);
        await page.close();
    });
}

// Every gallery card (keyed by its series' id) opens its own walk-through and its own tour,
// which is walked to its last step.
const SERIES = ['sprd-hs400es-2020', 'unisoc-fua-2022', 'u300-mmci-2011', 'unisoc-hsq-2023', 'hsq-intro-2020', 'fifo-dispatch-2022', 'io-schedulers', 'kernel-upgrade'];

test('the gallery has one card per series, each keyed by its own id', async () => {
    const { page, problems } = await open('?bs=4k#gallery');
    assert.deepEqual(await page.$$eval('.gallery-card', (c) => c.map((e) => e.dataset.series)), SERIES);
    // A link written when tours were keyed by platform still opens that platform's first series.
    await page.goto(page.url().split('?')[0] + '?tour=allwinner-hsq-2022&step=1');
    await page.waitForSelector('#tour[data-tour="fifo-dispatch-2022"]');
    assert.deepEqual(problems, []);
    await page.close();
});

for (const series of SERIES) {
    test(`the ${series} tour keeps its A/B pair on screen at every step and answers the prediction`, async () => {
        const { page, problems } = await open('?bs=4k#gallery');
        // The gallery card, then its "Take the tour" button.
        await page.click(`.gallery-card[data-series="${series}"]`);
        await page.waitForSelector(`.gallery-detail[data-series="${series}"]`);
        await page.click(`.take-tour[data-tour="${series}"]`);
        await page.waitForSelector(`#tour[data-tour="${series}"]`);
        assert.match(page.url(), new RegExp(`tour=${series}&step=1`), 'the URL follows, without a reload');
        const n = Number((await page.textContent('.tour-head')).match(/step \d+ of (\d+)/)[1]);
        let answered = false;
        let compared = 0;
        for (let k = 1; k <= n; k++) {
            assert.equal(await page.getAttribute('#tour', 'data-step'), String(k));
            for (const side of ['a', 'b']) {
                assert.ok(await inView(page, `.side.${side} .pipeline`, 0.4), `step ${k}: pipeline ${side} on screen`);
            }
            assert.ok(await inView(page, '#tour'), `step ${k}: the tour on screen`);
            const see = await page.textContent('#tour-see');
            assert.ok(see.length > 40, `step ${k} says what you see: ${see}`);
            if (k === n) break;
            if (await page.$('.predict')) {
                await page.click('.predict[data-choice="2"]');
                answered = true;
            } else {
                const label = await page.textContent('#tour-act');
                await page.click('#tour-act');
                if (/Run to the end|window only|Back to B/.test(label)) {
                    await page.waitForFunction(() => / 100 %/.test(document.querySelector('#sim-clock').textContent), null, { timeout: 60_000 });
                }
                if (/Play/.test(label)) await page.waitForTimeout(800);
                // Play and Show stay on the step that explains what they show, until Next.
                if (/^(Play|Replay|Show the column)/.test(label)) await page.click('#tour-next');
                // After the step's own button: the next step's figures, once the view stands
                // where that step reads them, are the readouts on screen.
                if (!/Play|Try/.test(label)) compared += await settled(page, k + 1, `${series} after "${label}"`);
                if (/Follow/.test(label)) {
                    // The FIFO tour follows the request that waited longest: the panel says why.
                    await page.waitForSelector('#request-why', { timeout: 60_000 });
                    const why = await page.textContent('#request-why');
                    assert.match(why, /starvation: \d+ requests that arrived after it went to the bus first/, why);
                }
            }
            await page.waitForSelector(`#tour[data-step="${k + 1}"]`);
        }
        assert.ok(answered, 'the tour asked a prediction');
        console.log(`${series}: ${compared} figures equal to their readouts after the steps' buttons`);
        const answer = await page.textContent('#tour-answer');
        const UNITS = { 'fifo-dispatch-2022': 'µs at p99\\.9', 'io-schedulers': "µs \\(the reader's mean clat\\)", 'kernel-upgrade': "µs \\(the reader's mean clat\\)" };
        const unit = UNITS[series] ?? '\\w+\\/s';
        assert.match(answer, new RegExp(`Simulated: A [\\d.]+ ${unit}, B [\\d.]+ ${unit}, B\\/A = [\\d.]+x`));
        // The answer's numbers are the A/B table's (one run).
        assert.match(await page.textContent('.tour-see'), /Recap/);
        if (series === 'sprd-hs400es-2020') {
            await page.screenshot({ path: await screenshotPath('tour-end.png') });
        }
        if (series === 'fifo-dispatch-2022') {
            // The followed request's panel (after the last step: scrolling no longer matters).
            await (await page.$('#explain')).screenshot({ path: await screenshotPath('tour-follow-why.png') });
        }
        assert.deepEqual(problems, []);
        await page.close();
    });
}

test('Run and Play drive one run: Run plays the watched simulation to its end, the results show A, B and the change', async () => {
    const { page, problems } = await open('?numjobs=20&size=1m&b.packed=8');
    await page.click('#play');
    await page.waitForTimeout(500);
    await page.click('#play');
    const paused = await clockNs(page);
    assert.ok(paused > 0);
    assert.match(await page.textContent('#results'), /not finished/);
    await page.click('#run');
    await page.waitForSelector('#results [data-side=change]', { timeout: 60_000 });
    assert.match(await page.textContent('#sim-clock'), / 100 %/);
    const end = await clockNs(page);
    assert.ok(end > paused, 'Run went on from where Play paused');
    assert.match(await page.textContent('.progress, [role=progressbar]').catch(() => ''), /./);
    assert.equal((await page.$$('#results [data-metric=total-mib-s]')).length, 2, 'A and B results');
    assert.ok(await page.$('#command-line-b'), 'the CLI line of B');
    assert.deepEqual(problems, []);
    await page.close();
});

test('a moment link restores t, paused, compare and tour/step exactly, and Copy link gives it back', async () => {
    const q = '?tour=sprd-hs400es-2020&step=3&t=216us&speed=50us&paused=1&compare=1&focus=controller';
    const { page, problems } = await open(q);
    await page.waitForFunction(() => document.querySelector('#sim-clock').textContent.startsWith('216.0 µs'));
    assert.equal(await page.getAttribute('#tour', 'data-step'), '3');
    assert.ok(await page.$('.side.b .pipeline'), 'compare: B on screen');
    await page.waitForSelector('#watch g.stage.focused[data-layer=Controller]');
    assert.equal(await page.$eval('#speed', (s) => s.selectedOptions[0].textContent), '50 µs/s');
    await page.waitForTimeout(500);
    assert.equal(await clockNs(page), 216_000, 'paused: the clock stays');
    assert.match(await page.textContent('#play'), /Play/);
    await page.click('#copy-moment');
    await page.waitForSelector('#moment-link');
    const link = await page.inputValue('#moment-link');
    for (const k of ['t=216us', 'speed=50us', 'paused=1', 'focus=controller', 'tour=sprd-hs400es-2020', 'step=3', 'b.packed=8']) {
        assert.ok(link.includes(k), `${k} in ${link}`);
    }
    const again = await env.browser.newPage({ viewport: { width: 1366, height: 768 } });
    await again.goto(link);
    await again.waitForFunction(() => document.querySelector('#sim-clock')?.textContent.startsWith('216.0 µs'));
    assert.equal(await again.getAttribute('#tour', 'data-step'), '3');
    await again.waitForSelector('#watch g.stage.focused[data-layer=Controller]');
    await again.close();
    assert.deepEqual(problems, []);
    await page.close();
});

test('a bad view key is reported like a bad scenario key and the rest loads; #lab scrolls', async () => {
    const { page, problems } = await open('?t=soon&bs=8k&speed=fast#lab');
    const notices = await page.$$eval('.notice', (n) => n.map((e) => e.textContent));
    assert.ok(notices.some((t) => /^URL: t: /.test(t)), notices.join(' | '));
    assert.ok(notices.some((t) => /^URL: speed: /.test(t)), notices.join(' | '));
    assert.ok(!notices.some((t) => /unknown option/.test(t)), notices.join(' | '));
    assert.equal(await page.inputValue('#ctl-bs'), '8k');
    await page.waitForFunction(() => scrollY > 100);
    assert.deepEqual(problems, []);
    await page.close();
});

test('the scrubber goes back over what was simulated, and Step goes backwards', async () => {
    const { page, problems } = await open('?numjobs=4&size=256k&t=400us&paused=1');
    await page.waitForFunction(() => document.querySelector('#sim-clock').textContent.startsWith('400.0 µs'));
    await page.$eval('#scrub', (el) => {
        el.value = '150000';
        el.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await page.waitForFunction(() => document.querySelector('#sim-clock').textContent.startsWith('150.0 µs'));
    await page.click('#step');
    await page.click('#step');
    const stepped = await clockNs(page);
    assert.ok(stepped > 150_000);
    await page.click('#step-back');
    // Step back re-simulates from time 0: wait for where it lands, not for its passing 0.
    await page.waitForFunction((t) => {
        const [v] = document.querySelector('#sim-clock').textContent.split(' ');
        return Number(v) * 1000 < t && Number(v) * 1000 >= 150_000;
    }, stepped);
    const back = await clockNs(page);
    assert.ok(back >= 150_000 && back < stepped, `${back} between 150000 and ${stepped}`);
    assert.deepEqual(problems, []);
    await page.close();
});

test('gallery and tour links change the URL with history entries, without reloading; Back returns', async () => {
    const { page, problems } = await open('?bs=4k');
    await page.evaluate(() => { window.__same_page = true; });
    const h0 = await page.evaluate(() => history.length);
    await page.click('.gallery-card[data-series="unisoc-fua-2022"]');
    await page.click('#gallery-ab-link');
    await page.waitForFunction(() => /platform=unisoc-fua-2022/.test(location.search) && /b\.fua=1/.test(location.search));
    await page.click('.take-tour[data-tour="unisoc-fua-2022"]');
    await page.waitForFunction(() => /tour=unisoc-fua-2022&step=1/.test(location.search));
    await page.click('#tour-next');
    await page.waitForFunction(() => /step=2/.test(location.search));
    assert.ok(await page.evaluate(() => history.length) > h0, 'history entries');
    await page.goBack();
    await page.waitForSelector('#tour[data-step="1"]');
    await page.goBack();
    await page.waitForSelector('#tour', { state: 'detached' });
    assert.ok(await page.evaluate(() => window.__same_page), 'no reload');
    assert.deepEqual(problems, []);
    await page.close();
});

test('opening a gallery card while a tour is open closes the tour: it would describe a pair no longer on screen', async () => {
    const { page, problems } = await open('?tour=sprd-hs400es-2020&step=2');
    await page.waitForSelector('#tour[data-tour="sprd-hs400es-2020"]');
    await page.click('a[href="#gallery"]');
    await page.click('.gallery-card[data-series="unisoc-fua-2022"]');
    await page.waitForSelector('.gallery-detail[data-series="unisoc-fua-2022"]');
    await page.waitForFunction(() => !document.querySelector('#tour'));
    assert.doesNotMatch(page.url(), /tour=/);
    assert.deepEqual(problems, []);
    await page.close();
});
