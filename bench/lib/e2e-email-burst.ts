import { type Stack, startStack, waitFor } from '../../test/e2e/harness.js';
import { changeIssuers, firstAnswers } from './e2e-round.js';
import { LIFTED, withDaemons } from './e2e-stack.js';
import type { BenchTable } from './report.js';
import { fixed, quantile } from './stats.js';

/** The issue's burst: 110 issuers change in one refresh; Slack and e-mail both deliver every one. */
export const EMAIL_BURST_ISSUERS = 110;
/** The issue's goal: the burst's e-mail p95 under this many seconds. */
export const EMAIL_BURST_GOAL_P95_S = 5;
/** The figures the issue's reporter measured before pooling: Slack p95 4.4 s; e-mail p95 17.7 s, max 19.3 s. */
const REPORTED = { slackP95S: 4.4, emailP95S: 17.7, emailMaxS: 19.3 } as const;

/** One way of sending e-mail, by the fields merged over the channel's config (none: the schema's defaults). */
interface EmailSetting {
  label: string;
  fields: Record<string, unknown>;
}

/** Today's sending before this change: one issuer's e-mail at a time, at the old default 5 a second. */
const SETTINGS: readonly EmailSetting[] = [
  {
    label: 'one at a time (maxConnections 1, 5/s: the sending before the pool)',
    fields: { maxConnections: 1, ratePerSecond: 5 },
  },
  { label: 'pooled (the schema defaults)', fields: {} },
];

/** What one setting measured, seconds from the sandbox's answer to the first e-mail naming the issuer. */
export interface EmailBurstFigures {
  label: string;
  p50: number;
  p95: number;
  max: number;
  mails: number;
}

/** The issuer id in an events e-mail's footer (`shortwatch · issuer ISS-0001 · detected …`). */
function issuerOf(text: string | undefined): string | undefined {
  return /shortwatch · issuer (\S+)/.exec(text ?? '')?.[1];
}

async function burstStack(fields: Record<string, unknown>): Promise<{ stack: Stack; ids: string[] }> {
  const stack = await startStack({
    issuers: EMAIL_BURST_ISSUERS,
    seed: 11,
    channels: ['email'],
    sandbox: { limits: LIFTED },
    config: { budget: { ...LIFTED, reserve: 10 }, poll: { gateInterval: '1s', concurrency: 4 } },
  });
  const smtp = { host: stack.smtp.host, port: stack.smtp.port, secure: false };
  stack.writeConfig({
    ...stack.configObject,
    channels: [
      {
        name: 'alerts',
        kind: 'email',
        ...smtp,
        from: 'shortwatch@example.test',
        to: ['t@example.test'],
        ...fields,
      },
    ],
  });
  return { stack, ids: stack.sandbox.scenario.issuers().map((i) => i.svc_issuer_id) };
}

/** Every issuer changes at once; waits for an e-mail naming each; latencies from each issuer's poll answer. */
async function emailRound(stack: Stack, ids: readonly string[]): Promise<EmailBurstFigures & { label: '' }> {
  const requestMark = stack.sandbox.stats.requests.length;
  const mailMark = stack.smtp.mails.length;
  const namedAt = new Map<string, number>();
  changeIssuers(stack.sandbox.scenario, ids);
  await waitFor(
    `an e-mail naming each of ${ids.length} issuers`,
    () => {
      for (const mail of stack.smtp.mails.slice(mailMark)) {
        const id = issuerOf(mail.parsed.text);
        if (id && !namedAt.has(id)) namedAt.set(id, mail.receivedAt.getTime());
      }
      return namedAt.size >= ids.length;
    },
    120_000,
    50,
  ).catch((error: unknown) => {
    const sample = stack.smtp.mails.at(-1)?.parsed.text?.split('\n').at(-2);
    throw new Error(
      `${String(error)}; ${namedAt.size} named, ${stack.smtp.mails.length - mailMark} e-mails, last footer: ${sample}`,
    );
  });
  const answered = firstAnswers(stack, requestMark);
  const latencies = ids.map((id) => (namedAt.get(id) ?? Number.NaN) - (answered.get(id) ?? Number.NaN));
  return {
    label: '',
    p50: quantile(latencies, 0.5) / 1000,
    p95: quantile(latencies, 0.95) / 1000,
    max: quantile(latencies, 1) / 1000,
    mails: stack.smtp.mails.length - mailMark,
  };
}

/** The 110-issuer burst by e-mail, sent one at a time (as before) and pooled, in the same run. */
export async function runEmailBurst(progress: (line: string) => void): Promise<EmailBurstFigures[]> {
  const results: EmailBurstFigures[] = [];
  for (const setting of SETTINGS) {
    const bench = await burstStack(setting.fields);
    try {
      const figures = await withDaemons(bench, 1, () => emailRound(bench.stack, bench.ids));
      results.push({ ...figures, label: setting.label });
      progress(`e2e-latency: e-mail burst, ${setting.label}: done`);
    } finally {
      await bench.stack.cleanup();
    }
  }
  return results;
}

/** The e-mail burst's table: this run's settings side by side, then the reporter's figure. */
export function emailBurstTable(results: readonly EmailBurstFigures[]): BenchTable {
  return {
    title: `E-mail burst: all ${EMAIL_BURST_ISSUERS} issuers change at once; sandbox answer → first e-mail naming the issuer (goal p95 under ${EMAIL_BURST_GOAL_P95_S} s)`,
    columns: ['sending', 'p50 s', 'p95 s', 'max s', 'e-mails'],
    rows: [
      ...results.map((r) => [r.label, fixed(r.p50, 2), fixed(r.p95, 2), fixed(r.max, 2), r.mails]),
      [
        `reported in the issue before this change (Slack p95 ${REPORTED.slackP95S} s in the same burst)`,
        '-',
        fixed(REPORTED.emailP95S, 1),
        fixed(REPORTED.emailMaxS, 1),
        '-',
      ],
    ],
  };
}
