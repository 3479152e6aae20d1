/**
 * Who controls the company, for the halakhic screen: reported by a source, else presumed from
 * the issuer (its domicile: country of incorporation, or Israel when its business address is
 * there), never from the exchange it lists on, since Israeli companies list in New York as
 * well as Tel Aviv. See docs/frameworks/jewish_halakhic.md ("The deciding fact").
 */
import type { ListingMeta } from '../inputs.ts';
import type { Reason } from '../result-types.ts';

/** ISO 3166-1 alpha-2 code of Israel. */
export const ISRAEL = 'IL';

export interface Control {
  /** Controlled by Jews; null = neither reported nor presumable. */
  jewish: boolean | null;
  /** How it is known: reported by a source, presumed from the issuer's domicile, or unknown. */
  how: 'reported' | 'presumed' | 'unknown';
  /** Prose: what the finding rests on. */
  basis: string;
}

/** Whether the company is controlled by Jews: reported, else presumed from the issuer's domicile. */
export function controlOf(listing: ListingMeta): Control {
  const reported = listing.jewishControlled ?? null;
  if (reported !== null) {
    return {
      jewish: reported,
      how: 'reported',
      basis: reported ? 'reported as controlled by Jews' : 'reported as not controlled by Jews',
    };
  }
  const domicile = listing.domicile ?? null;
  if (domicile === ISRAEL) {
    return {
      jewish: true,
      how: 'presumed',
      basis:
        'not reported; presumed controlled by Jews from the issuer, whose domicile is Israel (incorporated or with its business ' +
        'address there), as the Israeli kosher-company practice presumes of Israeli companies',
    };
  }
  if (domicile !== null) {
    return {
      jewish: false,
      how: 'presumed',
      basis:
        `not reported; presumed not controlled by Jews from the issuer, whose domicile is ${domicile} (outside Israel), following ` +
        'the majority (rov) of owners and managers of companies outside Israel',
    };
  }
  return {
    jewish: null,
    how: 'unknown',
    basis:
      "not reported, and the issuer's domicile is unknown, so control cannot be presumed (the exchange does not tell: Israeli " +
      'companies list abroad as well)',
  };
}

/**
 * The control reason: `info` when control is reported or presumed, or unknown but not deciding
 * (both readings give `agreed`); `insufficient_data` when unknown and the readings differ.
 */
export function controlReason(control: Control, source: string, agreed: boolean): Reason {
  const decides = control.jewish === null && !agreed;
  const tail =
    control.jewish !== null
      ? ''
      : agreed
        ? ' It does not decide here: the verdict is the same whether or not Jews control the company (the checks below are the ' +
          'stricter reading, for a company controlled by Jews).'
        : ' It decides here: the verdict differs between a company controlled by Jews (the checks below) and one not controlled by Jews.';
  return {
    code: 'jewish_halakhic.control',
    result: decides ? 'insufficient_data' : 'info',
    message: `Control: ${control.basis}.${tail} The screen is for a small holding with no say in the company's management.`,
    metric: control.how === 'presumed' ? 'listing.domicile' : 'listing.jewish_controlled',
    source,
  };
}
