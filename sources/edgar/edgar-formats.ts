import { z } from 'zod';

/** The published shapes of the SEC EDGAR JSON files faithscreen reads (fields it does not use pass through). */

export const FactSchema = z.object({
  start: z.string().optional(),
  end: z.string(),
  val: z.number(),
  accn: z.string(),
  fy: z.number().nullable().optional(),
  fp: z.string().nullable().optional(),
  form: z.string(),
  filed: z.string(),
  frame: z.string().optional(),
});
export type Fact = z.infer<typeof FactSchema>;

const ConceptSchema = z.looseObject({
  label: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  units: z.record(z.string(), z.array(FactSchema)),
});

/** `https://data.sec.gov/api/xbrl/companyfacts/CIK##########.json` */
export const CompanyFactsSchema = z.looseObject({
  cik: z.number(),
  entityName: z.string(),
  facts: z.record(z.string(), z.record(z.string(), ConceptSchema)),
});
export type CompanyFacts = z.infer<typeof CompanyFactsSchema>;

/** `https://data.sec.gov/submissions/CIK##########.json` */
export const SubmissionsSchema = z.looseObject({
  cik: z.string(),
  name: z.string(),
  sic: z.string(),
  sicDescription: z.string(),
  tickers: z.array(z.string()),
  exchanges: z.array(z.string().nullable()),
  fiscalYearEnd: z.string().nullable().optional(),
  stateOfIncorporation: z.string().nullable().optional(),
  addresses: z
    .looseObject({ business: z.looseObject({ stateOrCountry: z.string().nullable().optional() }).nullable().optional() })
    .nullable()
    .optional(),
  filings: z.looseObject({
    recent: z.looseObject({
      accessionNumber: z.array(z.string()),
      filingDate: z.array(z.string()),
      reportDate: z.array(z.string()),
      form: z.array(z.string()),
    }),
  }),
});
export type Submissions = z.infer<typeof SubmissionsSchema>;

/** `https://www.sec.gov/files/company_tickers_exchange.json` */
export const CompanyTickersExchangeSchema = z.object({
  fields: z.tuple([z.literal('cik'), z.literal('name'), z.literal('ticker'), z.literal('exchange')]),
  data: z.array(z.tuple([z.number(), z.string(), z.string(), z.string().nullable()])),
});
export type CompanyTickersExchange = z.infer<typeof CompanyTickersExchangeSchema>;

/** Parses one EDGAR file, naming the file and the first problem when it is not in the published format. */
export function parseEdgarJson<T>(schema: z.ZodType<T>, text: string, file: string): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not JSON (${(error as Error).message})`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: not in the EDGAR format: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'}`);
  }
  return parsed.data;
}

/** EDGAR's 10-digit zero-padded CIK, as used in file names. */
export function paddedCik(cik: number | string): string {
  return String(Number(cik)).padStart(10, '0');
}
