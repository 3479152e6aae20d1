/**
 * What a revenue member of a filing's product/service or segment axis says about the screened
 * activities (docs/data/activities.md, "Revenue members"). A member is read by its name: the
 * standard `us-gaap`/`srt` members and the company's own extension members alike, split into
 * words (`co:CargoAndFreightMember` → "cargo and freight").
 */
import type { ActivityCode, Involvement } from '../../engine/inputs.ts';

export type MemberReading =
  /** The member names a screened activity: its revenue is that activity's. */
  | { kind: 'activity'; activity: ActivityCode; involvement: Involvement; rule: string }
  /**
   * The member may hold a screened activity in a share the name does not tell: it accounts for
   * nothing. `content` when the words name a line that may hold one (a grocer's "grocery", a
   * resort's "food and beverage", a chip maker's "gaming"); otherwise the name tells nothing
   * of what is sold ("other", a region, the generic product class).
   */
  | { kind: 'ambiguous'; rule: string; content: boolean }
  /** The member names a line of business that is none of the screened activities. */
  | { kind: 'clean' };

interface ActivityRule {
  pattern: RegExp;
  activity: ActivityCode;
  involvement: Involvement;
  /** Why the words mean the activity (shown in the docs' table). */
  why: string;
}

/**
 * Words that name an activity. Each is the company's own line of business, so `producer`,
 * except where the words say the company sells what others make.
 */
export const ACTIVITY_RULES: readonly ActivityRule[] = [
  {
    pattern:
      /\b(casino|casinos|gambling|wagering|sportsbook|sports betting|betting|igaming|lottery|lotteries|pari mutuel|slot|slots|table games)\b/,
    activity: 'gambling',
    involvement: 'producer',
    why: 'the operator keeps the win of the games it runs',
  },
  {
    pattern:
      /\b(beer|beers|brewing|brewery|breweries|wine|wines|winery|spirits|liquor|alcohol|alcoholic|distilled|distillery|cider|whisky|whiskey|vodka|tequila|bourbon)\b/,
    activity: 'alcohol',
    involvement: 'producer',
    why: 'names the drink the company makes and sells',
  },
  { pattern: /\b(vapor|vapour|vaping|e cigarettes?|e vapor)\b/, activity: 'vaping', involvement: 'producer', why: 'names the product' },
  {
    pattern: /\b(tobacco|cigarettes?|cigars?|smokeless|snus|nicotine|heated tobacco)\b/,
    activity: 'tobacco',
    involvement: 'producer',
    why: 'names the product',
  },
  { pattern: /\b(cannabis|marijuana)\b/, activity: 'cannabis', involvement: 'producer', why: 'names the product' },
  { pattern: /\b(pork|swine|hogs?|bacon|ham)\b/, activity: 'pork', involvement: 'producer', why: 'names the meat' },
  {
    pattern: /\b(defense|defence|weapons?|munitions?|firearms?|ammunition|missiles?|armament|military|combat systems?)\b/,
    activity: 'weapons',
    involvement: 'producer',
    why: 'a defence line supplies armed forces; the weapons screens exclude defence manufacturing (FTSE names "weapons, arms and defence manufacturing")',
  },
  {
    pattern:
      /\b(interest income|net interest|lending|loans?|credit cards?|deposits?|deposit related|banking|mortgage banking|consumer finance)\b/,
    activity: 'conventional_finance',
    involvement: 'producer',
    why: 'interest-bearing lending and deposit-taking',
  },
  {
    pattern: /\b(insurance|premiums earned|premiums written|earned premiums|net premiums|underwriting|reinsurance|annuities)\b/,
    activity: 'conventional_insurance',
    involvement: 'producer',
    why: 'conventional underwriting',
  },
  {
    pattern: /\b(hotels?|lodging|rooms?|occupancy|resorts?|cruises?)\b/,
    activity: 'hotels_leisure',
    involvement: 'producer',
    why: 'the company runs the hotel or resort',
  },
  {
    pattern:
      /\b(theme parks?|parks|studios?|films?|motion pictures?|broadcasting|television|tv|cable networks?|streaming|music|you tube|youtube|cinemas?|theatres?|theaters?|admissions|box office|content licensing|linear networks)\b/,
    activity: 'media_entertainment',
    involvement: 'producer',
    why: 'the company makes or shows the entertainment',
  },
  { pattern: /\b(coffee|espresso)\b/, activity: 'coffee', involvement: 'producer', why: 'names the drink' },
  { pattern: /\btea\b/, activity: 'tea', involvement: 'producer', why: 'names the drink' },
  { pattern: /\b(adult entertainment|pornography)\b/, activity: 'adult_entertainment', involvement: 'producer', why: 'names the content' },
  { pattern: /\b(contraceptives?|contraception)\b/, activity: 'contraceptives', involvement: 'producer', why: 'names the product' },
];

/** Words that leave the member's content open. Tested after the activity words. */
export const AMBIGUOUS_RULES: ReadonlyArray<{ pattern: RegExp; why: string; content: boolean }> = [
  {
    pattern: /^(product|products|service|services|service other|product and service other|other|others)$/,
    why: 'a generic product or service class names no line of business',
    content: false,
  },
  {
    pattern:
      /\b(other|all other|others|miscellaneous|corporate|eliminations?|reconciling|unallocated|non segment|reportable segments?|reportable segment aggregation before other operating segment)\b/,
    why: 'a residual, reconciling or aggregate item',
    content: false,
  },
  {
    pattern:
      /\b(north america|international|domestic|foreign|americas|europe|asia|pacific|china|japan|latin america|emea|middle east|africa|us|u s|united states|canada|mexico|uk|rest of|global|worldwide|region|regions)\b/,
    why: 'a region says where, not what',
    content: false,
  },
  {
    pattern:
      /\b(stores?|retail|merchandise|grocery|groceries|food|foods|consumables|convenience|supermarkets?|warehouse club|club|restaurants?|dining|bars?|beverages?|drinks|concessions|snacks|catering|fuel and other)\b/,
    why: 'a shop, restaurant or drink line may sell alcohol, tobacco or pork in a share the name does not tell',
    content: true,
  },
  {
    pattern: /\b(gaming|games|leisure|entertainment|experiences|hospitality|recreation|nightlife)\b/,
    why: '"gaming" is wagering at a casino and video games at a chip maker; leisure and entertainment lines may hold bars, casinos or shows',
    content: true,
  },
  {
    pattern: /\b(subscription|subscriptions|advertising|content|media|digital)\b/,
    why: 'subscriptions and advertising may carry entertainment content',
    content: true,
  },
  {
    pattern: /\b(pharmacy|health and wellness|pharmaceuticals?|consumer health)\b/,
    why: 'a pharmacy or health line may sell contraceptives',
    content: true,
  },
];

/** `co:CargoAndFreightMember` → `cargo and freight`; `co:IPhoneMember` → `iphone`. */
export function memberWords(member: string): string {
  const local = member.replace(/^[^:]*:/, '').replace(/Member$/, '');
  return (
    local
      // Extension names often glue a lower-case "and" between words (`co:WearablesHomeandAccessoriesMember`).
      .replace(/([a-z])and([A-Z])/g, '$1 and $2')
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .replace(/[_\-.]+/g, ' ')
      .toLowerCase()
      .replace(/\bi (phone|pad|pod|mac)\b/g, 'i$1')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** What a revenue member says about the screened activities, by its name. */
export function readRevenueMember(member: string): MemberReading {
  const words = memberWords(member);
  for (const rule of ACTIVITY_RULES)
    if (rule.pattern.test(words)) return { kind: 'activity', activity: rule.activity, involvement: rule.involvement, rule: rule.why };
  for (const rule of AMBIGUOUS_RULES) if (rule.pattern.test(words)) return { kind: 'ambiguous', rule: rule.why, content: rule.content };
  return { kind: 'clean' };
}
