/**
 * us-gaap (and dei) concepts behind each screening input, in fallback order: the first concept
 * a filing reports wins. Documented in docs/data/sources.md.
 */
export const INSTANT_CONCEPTS = {
  total_assets: [['Assets']],
  cash_and_equivalents: [['CashAndCashEquivalentsAtCarryingValue'], ['CashCashEquivalentsRestrictedCashAndRestrictedCashEquivalents'], ['Cash']],
  interest_bearing_investments: [['ShortTermInvestments'], ['MarketableSecuritiesCurrent'], ['AvailableForSaleSecuritiesDebtSecuritiesCurrent']],
  accounts_receivable: [['AccountsReceivableNetCurrent'], ['ReceivablesNetCurrent'], ['AccountsReceivableNet']],
  total_liabilities: [['Liabilities']],
  total_equity: [['StockholdersEquity'], ['StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest']],
  current_assets: [['AssetsCurrent']],
  current_liabilities: [['LiabilitiesCurrent']],
  retained_earnings: [['RetainedEarningsAccumulatedDeficit']],
  ppe_net: [['PropertyPlantAndEquipmentNet'], ['PropertyPlantAndEquipmentAndFinanceLeaseRightOfUseAssetAfterAccumulatedDepreciationAndAmortization']],
  long_term_investments: [['LongTermInvestments'], ['MarketableSecuritiesNoncurrent'], ['AvailableForSaleSecuritiesDebtSecuritiesNoncurrent']],
  long_term_debt: [['LongTermDebtNoncurrent'], ['LongTermDebtAndCapitalLeaseObligations'], ['LongTermDebt']],
} as const;

/** Debt = long-term part (first alternative reported; a list sums its members) + short-term borrowings. */
export const LONG_TERM_DEBT = [['LongTermDebt'], ['LongTermDebtNoncurrent', 'LongTermDebtCurrent'], ['LongTermDebtNoncurrent'], ['DebtInstrumentCarryingAmount']] as const;
export const SHORT_TERM_DEBT = [['ShortTermBorrowings'], ['CommercialPaper'], ['DebtCurrent']] as const;

/** Flows, turned into trailing-twelve-month values. */
export const DURATION_CONCEPTS = {
  total_revenue: [['Revenues'], ['RevenueFromContractWithCustomerExcludingAssessedTax'], ['SalesRevenueNet'], ['RevenueFromContractWithCustomerIncludingAssessedTax']],
  interest_income: [['InvestmentIncomeInterest'], ['InterestAndDividendIncomeOperating'], ['InvestmentIncomeInterestAndDividend']],
  dividends_per_share: [['CommonStockDividendsPerShareDeclared'], ['CommonStockDividendsPerShareCashPaid']],
  net_income: [['NetIncomeLoss'], ['ProfitLoss']],
  ebit: [['OperatingIncomeLoss']],
  operating_cash_flow: [['NetCashProvidedByUsedInOperatingActivities']],
  gross_profit: [['GrossProfit']],
  depreciation: [['DepreciationDepletionAndAmortization'], ['DepreciationAndAmortization'], ['DepreciationAmortizationAndAccretionNet'], ['Depreciation']],
  sga_expense: [['SellingGeneralAndAdministrativeExpense'], ['GeneralAndAdministrativeExpense', 'SellingAndMarketingExpense']],
} as const;

/** Shares outstanding: the cover-page figure first, then the balance-sheet one. */
export const SHARES_CONCEPTS = [
  ['dei', 'EntityCommonStockSharesOutstanding'],
  ['us-gaap', 'CommonStockSharesOutstanding'],
] as const;

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
