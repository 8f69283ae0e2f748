import {
  AFM_FIXTURE,
  ANSP_FIXTURE,
  afmChanged,
  anspChanged,
  NORWAY_FIXTURE,
  norwayChanged,
  SCOPE_FIXTURE,
  SCOPE_NEXT_FIXTURE,
  SWEDEN_AGGREGATE_FIXTURE,
  SWEDEN_FIXTURE,
  swedenAggregateChanged,
  swedenChanged,
} from '../../test/e2e/register-changes.js';
import {
  AFM_HISTORY_FIXTURE,
  ANSP_HISTORIC_FIXTURE,
  ANSP_HISTORIC_NEXT_FIXTURE,
  afmHistoryChanged,
  CBI_FIXTURE,
  CNMV_FIXTURE,
  CONSOB_FIXTURE,
  cbiChanged,
  cnmvChanged,
  consobChanged,
  FSMA_FIXTURE,
  fsmaChanged,
  LEGACY_FIXTURE,
  legacyDropped,
} from '../../test/e2e/register-changes-named.js';
import type { ServedSource } from '../../test/e2e/register-stack.js';
import { registerBytes } from '../../test/helpers/register-fixtures.js';

/** A fixture served beside the others, and its modified copy (test/e2e/register-changes*.ts). */
export interface Served extends ServedSource {
  label: string;
  changed: () => Buffer;
}

/** Every register with a modified copy, in the bench's order. */
export const SERVED: readonly Served[] = [
  {
    label: 'AFM current',
    name: 'afm',
    kind: 'afm-current',
    path: '/afm.csv',
    fixture: AFM_FIXTURE,
    changed: afmChanged,
  },
  {
    label: 'Norway SSR (JSON)',
    name: 'oslo',
    kind: 'no-ssr-json',
    path: '/ssr.json',
    fixture: NORWAY_FIXTURE,
    changed: norwayChanged,
  },
  {
    label: 'Sweden current (ODS)',
    name: 'fi',
    kind: 'se-fi-current',
    path: '/fi.ods',
    fixture: SWEDEN_FIXTURE,
    changed: swedenChanged,
  },
  {
    label: 'Sweden aggregate (ODS)',
    name: 'fiagg',
    kind: 'se-fi-aggregate',
    path: '/fiagg.ods',
    fixture: SWEDEN_AGGREGATE_FIXTURE,
    changed: swedenAggregateChanged,
  },
  {
    label: 'UK ANSP current',
    name: 'fca',
    kind: 'uk-ansp-current',
    path: '/ansp.csv',
    fixture: ANSP_FIXTURE,
    changed: anspChanged,
  },
  {
    label: 'UK ANSP historic',
    name: 'fcahist',
    kind: 'uk-ansp-historic',
    path: '/hist.csv',
    fixture: ANSP_HISTORIC_FIXTURE,
    changed: () => registerBytes(ANSP_HISTORIC_NEXT_FIXTURE),
  },
  {
    label: 'UK reportable shares',
    name: 'rsl',
    kind: 'uk-reportable-shares',
    path: '/rsl.csv',
    fixture: SCOPE_FIXTURE,
    changed: () => registerBytes(SCOPE_NEXT_FIXTURE),
  },
  {
    label: 'UK legacy holders (XLSX)',
    name: 'fcalegacy',
    kind: 'uk-legacy-holders',
    path: '/legacy.xlsx',
    fixture: LEGACY_FIXTURE,
    config: { regimeBoundary: { namedHoldersUntil: '2026-07-12' } },
    changed: legacyDropped,
  },
  {
    label: 'CONSOB (XLSX)',
    name: 'consob',
    kind: 'it-consob',
    path: '/consob.xlsx',
    fixture: CONSOB_FIXTURE,
    changed: consobChanged,
  },
  {
    label: 'CNMV (XLS, BIFF8)',
    name: 'cnmv',
    kind: 'es-cnmv',
    path: '/cnmv.xls',
    fixture: CNMV_FIXTURE,
    changed: cnmvChanged,
  },
  {
    label: 'CBI (XLSX)',
    name: 'cbi',
    kind: 'ie-cbi',
    path: '/cbi.xlsx',
    fixture: CBI_FIXTURE,
    changed: cbiChanged,
  },
  {
    label: 'FSMA current (CSV)',
    name: 'fsma',
    kind: 'be-fsma-current',
    path: '/fsma.csv',
    fixture: FSMA_FIXTURE,
    changed: fsmaChanged,
  },
  // A history, as the AFM's: rows above 0.5% added open positions, and taken away close them. The FSMA
  // history holds no position (every row of it was replaced), so a changed copy tells nothing to time.
  {
    label: 'AFM history (CSV, cp1252)',
    name: 'afmhist',
    kind: 'afm-history',
    path: '/afmhist.csv',
    fixture: AFM_HISTORY_FIXTURE,
    changed: afmHistoryChanged,
  },
];
