import { describe, expect, it } from 'vitest';
import { currencyOf, isCountry } from './index.js';

/** The 249 officially assigned ISO 3166-1 alpha-2 codes (ISO 3166 Maintenance Agency, 2026). */
const ASSIGNED = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT ' +
  'BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ' +
  'ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT ' +
  'HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS ' +
  'LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI ' +
  'NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG ' +
  'SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG ' +
  'UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

describe('isCountry: the countries a request may name', () => {
  it('takes every officially assigned ISO 3166-1 alpha-2 code, and each but Antarctica has a currency', () => {
    expect(ASSIGNED).toHaveLength(249);
    expect(ASSIGNED.filter((code) => !isCountry(code))).toEqual([]);
    expect(ASSIGNED.filter((code) => currencyOf(code) === undefined)).toEqual(['AQ']);
  });

  it('takes XK (Kosovo, the code in common use) and refuses codes no country holds', () => {
    expect(isCountry('XK')).toBe(true);
    // Unassigned, user-assigned, exceptionally or transitionally reserved, withdrawn, lower case.
    for (const code of ['XX', 'ZZ', 'AA', 'QQ', 'UK', 'EU', 'EA', 'AN', 'YU', 'es', 'E', 'ESP']) expect(isCountry(code), code).toBe(false);
  });
});
