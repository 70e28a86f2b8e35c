import { DIFF_TYPES, type DiffReport, type DiffType } from './snapshot-diff.js';

/** What a `--fail-on` rule can measure, totalled over all types or for one (`songs.removed`). */
const METRICS = { added: 'added', removed: 'removed', changed: 'changed', 'changed-ids': 'changedIds' } as const;
type MetricName = keyof typeof METRICS;
const OPERATORS = ['>=', '<=', '>', '<', '='] as const;
type Operator = (typeof OPERATORS)[number];

export interface FailRule {
  readonly text: string;
  readonly type: DiffType | null;
  readonly metric: MetricName;
  readonly op: Operator;
  readonly limit: number;
}

export interface FailedRule {
  readonly rule: FailRule;
  readonly value: number;
}

/** Thrown for a `--fail-on` spec that does not parse; names the bad rule and what is allowed. */
export class FailOnSyntaxError extends Error {}

const RULE = /^(?:([a-z]+)\.)?([a-z-]+)\s*(>=|<=|>|<|=)\s*(\d+)$/;

/** Parses `"removed>100,changed-ids>0,songs.added>=5000"`. */
export function parseFailOn(spec: string): FailRule[] {
  const rules: FailRule[] = [];
  for (const raw of spec.split(',')) {
    const text = raw.trim();
    if (text === '') continue;
    const m = RULE.exec(text);
    const allowed = `rules look like removed>100 or songs.changed-ids>0; metrics: ${Object.keys(METRICS).join(', ')}; types: ${DIFF_TYPES.join(', ')}; operators: ${OPERATORS.join(' ')}`;
    if (!m) throw new FailOnSyntaxError(`--fail-on: cannot read rule ${JSON.stringify(text)} (${allowed})`);
    const [, type, metric, op, limit] = m;
    if (type !== undefined && !(DIFF_TYPES as readonly string[]).includes(type))
      throw new FailOnSyntaxError(`--fail-on: unknown type ${JSON.stringify(type)} in ${JSON.stringify(text)} (${allowed})`);
    if (!(metric in METRICS)) throw new FailOnSyntaxError(`--fail-on: unknown metric ${JSON.stringify(metric)} in ${JSON.stringify(text)} (${allowed})`);
    rules.push({ text, type: (type as DiffType | undefined) ?? null, metric: metric as MetricName, op: op as Operator, limit: Number(limit) });
  }
  return rules;
}

const holds = (value: number, op: Operator, limit: number): boolean =>
  op === '>' ? value > limit : op === '>=' ? value >= limit : op === '<' ? value < limit : op === '<=' ? value <= limit : value === limit;

/** The rules the report trips, each with the value that tripped it. */
export function failedRules(report: DiffReport, rules: readonly FailRule[]): FailedRule[] {
  const out: FailedRule[] = [];
  for (const rule of rules) {
    const key = METRICS[rule.metric];
    const value = rule.type ? report.types[rule.type][key] : report.totals[key];
    if (holds(value, rule.op, rule.limit)) out.push({ rule, value });
  }
  return out;
}
