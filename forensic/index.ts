export * from './altman.ts';
export * from './beneish.ts';
export * from './benford.ts';
export * from './health-score.ts';
export * from './piotroski.ts';
export * from './report.ts';
export * from './sloan.ts';
export * from './types.ts';
