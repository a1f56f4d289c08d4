import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cosignatures } from '../../src/audit/cosignatures';
import { cosignatures, parseCosignerKey, checkpointText, signNote, verifierKey, addCheckpointBody } from '@crcs/tlog';
import { runVerifier } from '../support/audit';
import { call, issueKey } from '../support/auth';
import { newSigningKey } from '../../packages/tlog/test/chain';
import { TEST_ADMIN_KEY } from '../support/test-app';
import { appendEntries } from '../support/transparency-log';
import { WitnessProcess } from '../support/witness-process';
import { LAPTOP, PHONE, portalSuite, screenshot, visit } from './browser';
import { layoutProblems } from './layout';

const ORIGIN = 'crcs.example/store-12';
const TITLE = 'Checkpoint and witnesses';

/** As the portal shows an instant: `utc()` in portal/js/dom.js. */
const shownUtc = (seconds: number) => `${new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/**
 * The portal's chain page against the real service and two real witnesses (`npm run witness`, each
 * its own process): the regulator's cosigns, the franchisor's had been shown another history of
 * the same log (a checkpoint signed with the log's key over another root) and refuses the real one.
 */
describe('the portal’s chain page, with a witness that cosigns and one that refuses', () => {
  const key = newSigningKey();
  const logVkey = verifierKey(ORIGIN, key);
  // Filled in before the service starts: the policy names the witnesses' keys and URLs.
  const env: Record<string, string> = {};
  let work: string;
  let policyFile: string;
  let regulator: WitnessProcess;
  let franchisor: WitnessProcess;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'crcs-chain-page-'));
    [regulator, franchisor] = await Promise.all([
      WitnessProcess.start(join(work, 'regulator'), [logVkey], 'witness.regulator.example/w1'),
      WitnessProcess.start(join(work, 'franchisor'), [logVkey], 'witness.franchisor.example/w1'),
    ]);
    const fork = signNote(checkpointText({ origin: ORIGIN, size: 1, root: Buffer.alloc(32, 7) }), ORIGIN, key);
    const shown = await fetch(`${franchisor.url}/add-checkpoint`, {
      method: 'POST',
      body: addCheckpointBody(0, [], fork),
    });
    if (shown.status !== 200)
      throw new Error(`the franchisor's witness did not cosign the fork: ${shown.status} ${await shown.text()}`);
    policyFile = join(work, 'policy');
    await writeFile(
      policyFile,
      `log ${logVkey}\nwitness regulator ${regulator.vkey} ${regulator.url}\nwitness franchisor ${franchisor.vkey} ${franchisor.url}\ngroup either any regulator franchisor\nquorum either\n`,
    );
    Object.assign(env, {
      CHECKPOINT_SIGNING_KEY: key.export({ format: 'pem', type: 'pkcs8' }) as string,
      LOG_ORIGIN: ORIGIN,
      LOG_POLICY_FILE: policyFile,
      CHECKPOINT_INTERVAL: '50',
      // Only CHECKPOINT_INTERVAL signs: a checkpoint made by the clock mid-test would change what the page and the API answer.
      CHECKPOINT_MAX_AGE_S: '3600',
    });
  }, 60_000);
  const suite = portalSuite({ signInWith: () => TEST_ADMIN_KEY, env });

  beforeAll(async () => {
    await appendEntries(suite.app, 60);
    await suite.app.app.get(Cosignatures).idle();
  });

  afterAll(async () => {
    await Promise.all([regulator?.stop(), franchisor?.stop()]);
    if (work) await rm(work, { recursive: true, force: true });
  });

  const witnessRows = () =>
    suite.tab.page
      .getByRole('table', { name: 'The witnesses of LOG_POLICY_FILE' })
      .locator(':scope > tbody > tr')
      .evaluateAll((rows) =>
        rows.map((row) => [...row.querySelectorAll(':scope > td > .value')].map((cell) => cell.textContent)),
      );

  it('shows the latest checkpoint as served, who cosigned it and when, and the quorum as verify-chain counts it', async () => {
    const { page } = suite.tab;
    await visit(suite.tab, 'chain', TITLE);
    const served = (await call(suite.app, 'GET', '/log/checkpoint', { key: TEST_ADMIN_KEY })).body as string;
    const state = (await call(suite.app, 'GET', '/admin/audit/witnessing', { key: TEST_ADMIN_KEY })).body;
    const [timestamp] = cosignatures(served, [parseCosignerKey(regulator.vkey)]).values();
    expect(state).toMatchObject({
      origin: ORIGIN,
      vkey: logVkey,
      checkpoint: { note: served },
      policy: {
        quorum: 'either',
        quorum_met: true,
        groups: [{ name: 'either', threshold: 1, members: ['regulator', 'franchisor'] }],
      },
    });
    const size = state.checkpoint.tree_size;

    const note = page.getByRole('region', { name: TITLE }).locator('pre.note');
    await note.waitFor();
    expect(await note.textContent()).toBe(served);
    await page.getByRole('button', { name: 'Copy the note' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(served);
    expect(
      await page
        .locator('dl.facts > div')
        .evaluateAll((facts) =>
          facts.map((fact) => [fact.querySelector('dt')?.textContent, fact.querySelector('dd')?.textContent]),
        ),
    ).toEqual([
      ['Origin', ORIGIN],
      ['Verifier key', logVkey],
      ['Tree size', size.toLocaleString('en-US')],
      ['Root hash', state.checkpoint.root_hash],
      ['Signed', shownUtc(Date.parse(state.checkpoint.signed_at) / 1000)],
      ['Quorum', 'either: any of regulator, franchisor'],
    ]);
    expect(await witnessRows()).toEqual([
      ['regulator', regulator.vkey, regulator.url, `yes, at ${shownUtc(timestamp)}`, size.toLocaleString('en-US')],
      ['franchisor', franchisor.vkey, franchisor.url, 'no', '—'],
    ]);
    await page.getByText('The latest checkpoint meets the quorum: cosigned by regulator.').waitFor();

    // What the page says of the quorum is what an auditor's verifier says of the note it shows.
    const saved = join(work, 'checkpoint-from-the-page');
    await writeFile(saved, (await note.textContent())!);
    const verified = await runVerifier(['checkpoint', saved, '--policy', policyFile]);
    expect(verified.stderr).toBe(
      `OK: the checkpoint of ${ORIGIN} at tree size ${size} carries the log's valid signature, and cosignatures meeting the policy's quorum (either)\n`,
    );
  });

  it('shows the refusing witness’s chain alarm, as /health lists it, and reads well on a laptop and on a phone', async () => {
    const { page } = suite.tab;
    await visit(suite.tab, 'chain', TITLE);
    const health = await call(suite.app, 'GET', '/health');
    expect(health.status).toBe(503);
    const size = (await call(suite.app, 'GET', '/admin/audit/witnessing', { key: TEST_ADMIN_KEY })).body.checkpoint
      .tree_size;
    const alarm = {
      source: 'witness',
      kind: 'refused',
      position: size,
      detail:
        `witness franchisor (${franchisor.url}) refused to cosign the checkpoint of tree size ${size}: 422 the consistency proof from tree size 1 to ${size} ` +
        `does not verify against the root this witness cosigned at 1: the checkpoint of ${ORIGIN} does not extend what this witness cosigned before ` +
        '(history rewritten, rolled back or forked)',
    };
    // The signer, told of the refusal, stops (it must never sign a fork) and raises its own alarm, which says what to do.
    const stopped = {
      ...alarm,
      source: 'signer',
      detail:
        `${alarm.detail}. The signer has stopped and signs nothing more: the log does not extend what the witness cosigned. ` +
        `Compare the log with the witness's checkpoint (npm run verify-chain), restore the true history, then delete ` +
        `${join(suite.app.config.dataDir, 'checkpoint-witness.ndjson')}.refused and restart the service`,
    };
    expect(health.body.chain.alarms).toEqual([stopped, alarm]);
    expect(health.body.chain.signer).toMatchObject({ state: 'refused', alarm: { kind: 'refused', position: size } });
    // The page's table lists the witnessing alarms only; the banner above every page lists both.
    const alarms = page.getByRole('table', { name: /^Refusals and cosignatures that do not verify/ });
    await alarms.waitFor();
    expect(await alarms.locator(':scope > tbody > tr > td > .value').allInnerTexts()).toEqual([
      'witness',
      'refused',
      String(size),
      alarm.detail,
    ]);
    const banner = page.locator('#chain-alarm');
    await banner.getByText(`Chain alarm (witness): ${alarm.detail}`, { exact: true }).waitFor();
    expect(await banner.locator(':scope > *').allInnerTexts()).toEqual([
      `Chain alarm (signer): ${stopped.detail}`,
      `Chain alarm (witness): ${alarm.detail}`,
    ]);

    // For the README: the checkpoint, the witnesses and the alarm in view (the banner repeats the alarm above the page).
    await page
      .getByRole('heading', { name: 'Latest checkpoint' })
      .evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'chain');
    for (const viewport of [LAPTOP, PHONE]) {
      await page.setViewportSize(viewport);
      expect({ width: viewport.width, problems: await layoutProblems(page) }).toEqual({
        width: viewport.width,
        problems: [],
      });
    }
    await page
      .getByRole('heading', { name: 'Witnesses', exact: true })
      .evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'phone-chain');
  });
});

/** Without LOG_POLICY_FILE: the checkpoint, signed by the log alone, and what the setting is for; read with an auditor key. */
describe('the portal’s chain page, with no witness policy', () => {
  let auditorKey: string;
  const suite = portalSuite({
    signInWith: () => auditorKey,
    env: {
      CHECKPOINT_SIGNING_KEY: newSigningKey().export({ format: 'pem', type: 'pkcs8' }) as string,
      LOG_ORIGIN: ORIGIN,
      CHECKPOINT_INTERVAL: '20',
    },
  });

  beforeAll(async () => {
    auditorKey = (await issueKey(suite.app, { role: 'auditor', name: 'Compliance review' })).key;
    await appendEntries(suite.app, 30);
  });

  it('says plainly that no witness is asked, and what LOG_POLICY_FILE is for', async () => {
    const { page } = suite.tab;
    await visit(suite.tab, 'chain', TITLE);
    expect((await call(suite.app, 'GET', '/admin/audit/witnessing', { key: auditorKey })).body.policy).toBeNull();
    await page
      .getByText(
        'No witness policy is configured: LOG_POLICY_FILE is not set, so no witness is asked to cosign, and each checkpoint carries the log’s own signature only.',
      )
      .waitFor();
    await page.getByText(/^LOG_POLICY_FILE names a c2sp\.org tlog-policy file: the independent witnesses/).waitFor();
    const served = (await call(suite.app, 'GET', '/log/checkpoint', { key: auditorKey })).body;
    expect(await page.locator('pre.note').textContent()).toBe(served);
    expect(await page.getByRole('table').count()).toBe(0);
  });
});
