import { describe, expect, it } from 'vitest';
import { mergeExpositions } from './cluster-metrics.js';

describe('mergeExpositions', () => {
  it('describes each family once and keeps every worker series', () => {
    const w = (n: number) =>
      `# HELP m_total Things.\n# TYPE m_total counter\nm_total{worker="${n}"} ${n}\n# HELP g Gauge.\n# TYPE g gauge\ng{worker="${n}"} 1\n`;
    expect(mergeExpositions([w(1), w(2)])).toBe(
      '# HELP m_total Things.\n# TYPE m_total counter\nm_total{worker="1"} 1\nm_total{worker="2"} 2\n# HELP g Gauge.\n# TYPE g gauge\ng{worker="1"} 1\ng{worker="2"} 1\n',
    );
  });
});
