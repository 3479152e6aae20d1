/**
 * us-gaap concepts behind each fundamentals column, in fallback order: the first alternative
 * the filing reports wins; an alternative that lists several concepts sums those reported.
 * Documented in docs/data/sources.md ("edgar"); the screening figures' composite rules
 * (debt, interest-bearing investments, interest income…) are in `figure-rules.ts`.
 */
import { NON_OPERATING_INCOME_CONCEPTS } from '../../engine/proxies.ts';

export type Alternatives = ReadonlyArray<readonly string[]>;

/** Balance-sheet inputs with a plain fallback list (the forensic ones, and total assets). */
export const INSTANT_CONCEPTS = {
  total_assets: [['Assets']],
  total_liabilities: [['Liabilities']],
  total_equity: [['StockholdersEquity'], ['StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest']],
  current_assets: [['AssetsCurrent']],
  current_liabilities: [['LiabilitiesCurrent']],
  inventory: [['InventoryNet']],
  retained_earnings: [['RetainedEarningsAccumulatedDeficit']],
  ppe_net: [
    ['PropertyPlantAndEquipmentNet'],
    ['PropertyPlantAndEquipmentAndFinanceLeaseRightOfUseAssetAfterAccumulatedDepreciationAndAmortization'],
  ],
  long_term_investments: [
    ['LongTermInvestments'],
    ['MarketableSecuritiesNoncurrent'],
    ['AvailableForSaleSecuritiesDebtSecuritiesNoncurrent'],
  ],
  long_term_debt: [['LongTermDebtNoncurrent'], ['LongTermDebtAndCapitalLeaseObligations'], ['LongTermDebt']],
} as const satisfies Record<string, Alternatives>;

/** Flows of the forensic inputs, turned into trailing-twelve-month values. */
export const DURATION_CONCEPTS = {
  net_income: [['NetIncomeLoss'], ['ProfitLoss']],
  ebit: [['OperatingIncomeLoss']],
  operating_cash_flow: [['NetCashProvidedByUsedInOperatingActivities']],
  gross_profit: [['GrossProfit']],
  depreciation: [
    ['DepreciationDepletionAndAmortization'],
    ['DepreciationAndAmortization'],
    ['DepreciationAmortizationAndAccretionNet'],
    ['Depreciation'],
  ],
  sga_expense: [['SellingGeneralAndAdministrativeExpense'], ['GeneralAndAdministrativeExpense', 'SellingAndMarketingExpense']],
} as const satisfies Record<string, Alternatives>;

/**
 * Interest-bearing debt from balance-sheet lines. Operating lease liabilities are never debt
 * (AAOIFI, S&P and the index providers count interest-bearing borrowing); finance leases are.
 */
export const DEBT = {
  /** Total current debt: commercial paper, short-term borrowings and current maturities together. */
  currentTotal: [['DebtCurrent']],
  /** Current maturities of long-term debt (the first two include current finance leases). */
  currentLongTerm: [['LongTermDebtAndCapitalLeaseObligationsCurrent'], ['LongTermDebtCurrent'], ['LongTermNotesPayableCurrent']],
  /** Short-term borrowings; commercial paper only when not already inside them. */
  shortTerm: [
    ['ShortTermBorrowings'],
    ['CommercialPaper'],
    ['ShortTermBankLoansAndNotesPayable'],
    ['LinesOfCreditCurrent'],
    ['NotesPayableCurrent'],
  ],
  /** Long-term debt net of current maturities (the first includes non-current finance leases). */
  noncurrent: [
    ['LongTermDebtAndCapitalLeaseObligations'],
    ['LongTermDebtNoncurrent'],
    ['LongTermNotesPayable'],
    ['LongTermLineOfCredit'],
    ['OtherLongTermDebtNoncurrent'],
  ],
  /** Totals, for filers without a current/non-current split (insurers, banks): current maturities included. */
  total: [
    ['DebtAndCapitalLeaseObligations'],
    ['LongTermDebt'],
    ['DebtLongtermAndShorttermCombinedAmount'],
    ['NotesPayable'],
    ['DebtInstrumentCarryingAmount'],
  ],
  /** Finance (capital) lease liabilities: the larger of the total and current + non-current (a filer may tag them apart). */
  financeLeaseTotal: [['FinanceLeaseLiability'], ['CapitalLeaseObligations']],
  financeLeaseParts: [
    ['FinanceLeaseLiabilityCurrent', 'FinanceLeaseLiabilityNoncurrent'],
    ['CapitalLeaseObligationsCurrent', 'CapitalLeaseObligationsNoncurrent'],
  ],
  /** Concepts that already include short-term borrowings or finance leases. */
  includesShortTerm: [
    'DebtCurrent',
    'DebtAndCapitalLeaseObligations',
    'DebtLongtermAndShorttermCombinedAmount',
    'DebtInstrumentCarryingAmount',
  ],
  includesFinanceLeases: [
    'LongTermDebtAndCapitalLeaseObligationsCurrent',
    'LongTermDebtAndCapitalLeaseObligations',
    'DebtAndCapitalLeaseObligations',
  ],
  /** A debt-free reading needs the filing to report no interest expense either. */
  interestExpense: [['InterestExpense'], ['InterestExpenseDebt'], ['InterestExpenseNonoperating'], ['InterestAndDebtExpense']],
} as const;

export const CASH: Alternatives = [
  ['CashAndCashEquivalentsAtCarryingValue'],
  ['CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents'],
  ['Cash'],
  ['CashAndDueFromBanks', 'InterestBearingDepositsInBanks'],
  ['CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalentsIncludingDisposalGroupAndDiscontinuedOperations'],
  ['CashAndCashEquivalentsAtCarryingValueIncludingDiscontinuedOperations'],
  ['CashAndDueFromBanks'],
];

/**
 * Interest-bearing securities and deposits outside cash; generic (often equity) investments are
 * not counted, nor CertificatesOfDepositAtCarryingValue (filers use it for the CDs inside cash
 * equivalents: counting it would count them twice).
 */
export const INVESTMENTS = {
  /** Classified balance sheet (it reports AssetsCurrent): current and non-current lines. */
  current: [
    ['ShortTermInvestments'],
    ['MarketableSecuritiesCurrent'],
    ['AvailableForSaleSecuritiesDebtSecuritiesCurrent', 'HeldToMaturitySecuritiesCurrent'],
    ['OtherShortTermInvestments'],
  ],
  noncurrent: [
    ['MarketableSecuritiesNoncurrent'],
    ['AvailableForSaleSecuritiesDebtSecuritiesNoncurrent', 'HeldToMaturitySecuritiesNoncurrent'],
  ],
  /** Unclassified balance sheet (banks, insurers): each kind of debt security once. */
  unclassified: [
    [['AvailableForSaleSecuritiesDebtSecurities'], ['DebtSecuritiesAvailableForSaleExcludingAccruedInterest']],
    [
      ['HeldToMaturitySecurities'],
      ['DebtSecuritiesHeldToMaturityExcludingAccruedInterestAfterAllowanceForCreditLoss'],
      ['DebtSecuritiesHeldToMaturityAmortizedCostAfterAllowanceForCreditLoss'],
    ],
    [['TradingSecuritiesDebt']],
    [['OtherShortTermInvestments'], ['ShortTermInvestments']],
  ],
  /** Reported but not counted (named in the figure's source so a reader can judge). */
  generic: ['LongTermInvestments', 'Investments', 'TradingSecurities'],
} as const;

/**
 * Receivables, net of allowances: trade lines, then lines that add notes or other receivables,
 * then an insurer's premiums, then a lender's loans (financing receivables). Each is the filer's
 * own balance-sheet line; docs/data/sources.md names a filer that uses each.
 */
export const RECEIVABLES: Alternatives = [
  ['AccountsReceivableNetCurrent'],
  // The names of the 2023 taxonomy for trade receivables after the credit-loss allowance.
  ['AccountsReceivableAfterAllowanceForCreditLossCurrent'],
  ['ContractWithCustomerReceivableAfterAllowanceForCreditLossCurrent'],
  ['ReceivablesNetCurrent'],
  ['AccountsNotesAndLoansReceivableNetCurrent'],
  ['AccountsAndOtherReceivablesNetCurrent'],
  ['AccountsReceivableNet'],
  ['AccountsAndNotesReceivableNet'],
  ['PremiumsAndOtherReceivablesNet'],
  ['PremiumsReceivableAtCarryingValue'],
  ['LoansAndLeasesReceivableNetReportedAmount'],
  ['FinancingReceivableExcludingAccruedInterestAfterAllowanceForCreditLoss'],
  ['NotesAndLoansReceivableNetCurrent'],
];

/** Revenue candidates: the largest trailing-twelve-month total among those reported wins (the most complete). */
export const REVENUE: Alternatives = [
  ['Revenues'],
  ['RevenueFromContractWithCustomerExcludingAssessedTax'],
  ['RevenueFromContractWithCustomerIncludingAssessedTax'],
  ['SalesRevenueNet'],
  ['SalesRevenueGoodsNet'],
  ['RevenuesNetOfInterestExpense'],
  // A bank's gross income: interest and dividend income plus non-interest income.
  ['InterestAndDividendIncomeOperating', 'NoninterestIncome'],
];

interface InterestTier {
  /** How the figure's source names the tier (not shown for interest proper). */
  tier: string;
  alternatives: Alternatives;
}

/**
 * Interest income in three tiers, best first; within a tier the first concept reported wins.
 * Interest proper, then income that includes some other income, then the net non-operating
 * result as a proxy (used only when positive, for a filer that shows interest nowhere else).
 * When none gives twelve months, what is known is a lower bound at most (`interestIncomeFigure`).
 */
export const INTEREST_INCOME: { interest: InterestTier; withOther: InterestTier; proxy: InterestTier } = {
  interest: {
    tier: 'interest',
    alternatives: [
      ['InterestAndDividendIncomeOperating'],
      ['InterestIncomeOperating'],
      ['InvestmentIncomeInterest'],
      ['InvestmentIncomeInterestAndDividend'],
      ['InterestIncomeOther'],
    ],
  },
  withOther: {
    tier: 'interest and other income together',
    alternatives: [['InterestAndOtherIncome'], ['InvestmentIncomeNet'], ['NetInvestmentIncome']],
  },
  proxy: {
    tier: 'proxy: net non-operating income (interest income not reported apart)',
    alternatives: NON_OPERATING_INCOME_CONCEPTS.map((concept) => [concept]),
  },
};

/**
 * Interest income net of interest expense. A filer that reports only this line shows its
 * interest income nowhere apart, and its non-operating lines exclude it: interest income is
 * unknown, and the net, when positive, is a lower bound of it (expense is never negative).
 */
export const NET_INTEREST: Alternatives = [['InterestIncomeExpenseNonoperatingNet'], ['InterestIncomeExpenseNet']];

export const DIVIDENDS_PER_SHARE: Alternatives = [['CommonStockDividendsPerShareDeclared'], ['CommonStockDividendsPerShareCashPaid']];

/** Shares outstanding: the cover page, then the balance sheet, then the period's basic weighted average. */
export const SHARES_CONCEPTS = [
  ['dei', 'EntityCommonStockSharesOutstanding'],
  ['us-gaap', 'CommonStockSharesOutstanding'],
] as const;
export const WEIGHTED_SHARES = 'WeightedAverageNumberOfSharesOutstandingBasic';

/** Periodic report forms whose facts become fundamentals rows. */
export const PERIODIC_FORMS = new Set(['10-K', '10-Q', '10-K/A', '10-Q/A', '20-F', '40-F']);

/** EDGAR exchange names → ISO 10383 MICs. */
export const EXCHANGE_MICS: Readonly<Record<string, string>> = {
  Nasdaq: 'XNAS',
  NYSE: 'XNYS',
  'NYSE American': 'XASE',
  'NYSE MKT': 'XASE',
  'NYSE Arca': 'ARCX',
  CBOE: 'BATS',
  BATS: 'BATS',
  OTC: 'OTCM',
};
