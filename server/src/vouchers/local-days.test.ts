/**
 * A coupon's and a reward's bare dates (YYYY-MM-DD) are the Company's days, as its campaign dates and its static
 * code's dates are, over HTTP: a voucher's available_from/available_to and print_from/print_to, and a reward's
 * fixed validity, are the first instant and the last second of the local day, whichever way the voucher is issued.
 * They were read as UTC days: at UTC+14 a voucher "until 2026-12-31" ended 14 hours after the Company's day had.
 * Their counts of days (and a reward's of weeks, months, years) are the Company's calendar days: a validity ends at
 * the local time it started, across a DST change too (whole 24-hour days ended an hour off).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countAcrossChange, expectLater } from '../calendar/testing.js';
import { createReward, customersWithPoints, LOCATION, redeem } from '../rewards/testing.js';
import { startServer, type TestResponse, type TestServer } from '../testing/server.js';

/** Pacific/Kiritimati is UTC+14 and America/Mexico_City UTC-6, all year (neither has had DST since 2022). */
const KIRITIMATI = 'Pacific/Kiritimati';
const MEXICO_CITY = 'America/Mexico_City';
/** Both move their clocks: Madrid at 01:00 UTC on the last Sundays of March and October, New York at 02:00 local on the second Sunday of March and the first of November. */
const MADRID = 'Europe/Madrid';
const NEW_YORK = 'America/New_York';

describe("a coupon's and a reward's dates and counts of days are the Company's", () => {
  let server: TestServer;
  let nextCustomer = 100;

  const setTimezone = async (timezone: string) => {
    const res = await server.client.patch('/company', { timezone });
    expect(res.status, res.text).toBe(200);
  };
  const customer = async () => {
    const id = nextCustomer++;
    const res = await server.client.post('/customers', { id, name: `Customer ${id}`, registration_location_id: LOCATION.id, country: 'ES' });
    expect(res.status, res.text).toBe(200);
    return id;
  };
  /** A targeted discount campaign with a coupon of `coupon`; its id. */
  const discount = async (coupon: Record<string, unknown>) => {
    const res = await server.client.post('/discounts', {
      rule_params: { name: 'One off', select_customers: 'targeted', rule_effects: [{ type: 'direct_value', value: 1, distribution: 'total' }] },
      coupon_params: { name: 'One off', ...coupon },
    });
    expect(res.status, res.text).toBe(200);
    return res.body.id as number;
  };
  /**
   * A voucher of the campaign issued by POST /discounts/trigger; its code. The trigger issues no voucher already
   * ended, so the fixed dates below are in 2099, a year with 2026's calendar and (by today's rules) its clock changes.
   */
  const issue = async (campaignId: number, customerId: number) => {
    const res = await server.client.post('/discounts/trigger', { customer_id: customerId, loyalty_rule_id: campaignId });
    expect(res.status, res.text).toBe(200);
    return res.body.voucher_code as string;
  };
  const dates = (voucher: Record<string, unknown>) => ({
    available_from: voucher.available_from, available_to: voucher.available_to, print_from: voucher.print_from, print_to: voucher.print_to,
  });
  /** The voucher as GET /vouchers/{code} answers it. */
  const voucher = async (code: string) => {
    const res = await server.client.get(`/vouchers/${code}`);
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  /** The voucher's dates as each read answers them: the voucher, the customer's list, the campaign's voucher_info. */
  const reads = async (code: string, customerId: number) => {
    const one = await server.client.get(`/vouchers/${code}`);
    const list = await server.client.get('/vouchers', { query: { customer_id: String(customerId) } });
    const campaign = await server.client.get(`/discounts/${code}`, { query: { search_by: 'voucher_code' } });
    for (const res of [one, list, campaign]) expect(res.status, res.text).toBe(200);
    const listed = list.body.data.find((v: { code: string }) => v.code === code);
    return [dates(one.body), dates(listed), dates(campaign.body.coupon_info.voucher_info)];
  };
  /** Today's date where the Company is. */
  const localToday = (timezone: string, offsetDays = 0) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: timezone }).format(new Date(Date.now() + offsetDays * 86_400_000));

  beforeAll(async () => {
    server = await startServer();
    expect((await server.client.post('/locations', LOCATION)).status).toBe(200);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('issues a coupon\'s available_from/available_to and reads its print_from/print_to as the local day\'s bounds', async () => {
    const coupon = { available_from: '2099-03-01', available_to: '2099-12-31', printable: true, print_from: '2099-03-01', print_to: '2099-03-31' };
    const expected = {
      [KIRITIMATI]: { available_from: '2099-02-28T10:00:00Z', available_to: '2099-12-31T09:59:59Z', print_from: '2099-02-28T10:00:00Z', print_to: '2099-03-31T09:59:59Z' },
      [MEXICO_CITY]: { available_from: '2099-03-01T06:00:00Z', available_to: '2100-01-01T05:59:59Z', print_from: '2099-03-01T06:00:00Z', print_to: '2099-04-01T05:59:59Z' },
    };
    for (const timezone of [KIRITIMATI, MEXICO_CITY] as const) {
      await setTimezone(timezone);
      const holder = await customer();
      const code = await issue(await discount(coupon), holder);
      expect(await reads(code, holder), timezone).toEqual([expected[timezone], expected[timezone], expected[timezone]]);
    }
  });

  it('keeps an issued voucher\'s dates when the timezone changes; the print window, read from the coupon, follows it', async () => {
    await setTimezone(KIRITIMATI);
    const holder = await customer();
    const code = await issue(await discount({ available_to: '2099-12-31', printable: true, print_from: '2099-03-01', print_to: '2099-03-31' }), holder);
    await setTimezone(MEXICO_CITY);
    const after = { available_to: '2099-12-31T09:59:59Z', print_from: '2099-03-01T06:00:00Z', print_to: '2099-04-01T05:59:59Z' };
    for (const read of await reads(code, holder)) expect(read).toMatchObject(after);
  });

  it('keeps bare dates at the ends of year 0000 and 9999 within the datetimes the contract writes', async () => {
    // Tokyo's local mean time was UTC+09:18:59: its 0000-01-01 starts before 0000-01-01T00:00:00Z.
    await setTimezone('Asia/Tokyo');
    const east = await customer();
    // A voucher ended in year 0000 is not issued: the print window, read from the coupon, ends that day instead.
    const first = await issue(await discount({ available_from: '0000-01-01', printable: true, print_from: '0000-01-01', print_to: '0000-01-01' }), east);
    expect((await reads(first, east))[0]).toEqual({ available_from: '0000-01-01T00:00:00Z', available_to: null, print_from: '0000-01-01T00:00:00Z', print_to: '0000-01-01T14:41:00Z' });
    await setTimezone(MEXICO_CITY);
    const west = await customer();
    const last = await issue(await discount({ available_to: '9999-12-31', printable: true, print_to: '9999-12-31' }), west);
    expect((await reads(last, west))[0]).toMatchObject({ available_to: '9999-12-31T23:59:59Z', print_to: '9999-12-31T23:59:59Z' });
  });

  // Kiritimati's today starts at 10:00 UTC of the UTC day before, Etc/GMT+12's (UTC-12) today ends at 11:59:59 UTC
  // of the UTC day after: read as UTC days, a window of the local today refused the print for part of every day.
  it('prints inside a print window of the Company\'s today, and not outside it', async () => {
    for (const timezone of [KIRITIMATI, 'Etc/GMT+12']) {
      await setTimezone(timezone);
      const print = async (window: Record<string, unknown>) => {
        const holder = await customer();
        const code = await issue(await discount({ printable: true, ...window }), holder);
        return server.client.post('/vouchers/print', { codes: [code], customer_id: holder });
      };
      // The prints use the real clock: when the local date turns while they run (at 10:00 or 12:00 UTC), once more.
      let today: string;
      let answers: TestResponse[];
      do {
        today = localToday(timezone);
        answers = [
          await print({ print_from: today, print_to: today }),
          await print({ print_to: localToday(timezone, -1) }),
          await print({ print_from: localToday(timezone, 1) }),
        ];
      } while (localToday(timezone) !== today);
      const [printed, ...refused] = answers;
      expect(printed.status, `${timezone} ${printed.text}`).toBe(200);
      expect(printed.body.vouchers[0].prints).toBe(1);
      for (const answer of refused) {
        expect(answer.status, `${timezone} ${answer.text}`).toBe(400);
        expect(answer.body).toMatchObject({ code: 'invalid_request', error: expect.stringMatching(/can be printed (from|until) /) });
      }
    }
  });

  it('counts a coupon\'s available_days and print_days from a datetime as calendar days, ending at the local time they start', async () => {
    const coupon = { available_from: '2099-03-20T10:00:00Z', available_days: 30, printable: true, print_from: '2099-10-01T10:00:00Z', print_days: 30 };
    // Madrid: 11:00 on March 20 (UTC+1) to 11:00 on April 19 (UTC+2); 12:00 on October 1 (UTC+2) to 12:00 on October 31 (UTC+1).
    // New York: 06:00 on March 20 (UTC-4, after March 8) to 06:00 on April 19; 06:00 on October 1 (UTC-4) to 06:00 on October 31 (still UTC-4).
    const expected = {
      [MADRID]: { available_from: '2099-03-20T10:00:00Z', available_to: '2099-04-19T09:00:00Z', print_from: '2099-10-01T10:00:00Z', print_to: '2099-10-31T11:00:00Z' },
      [NEW_YORK]: { available_from: '2099-03-20T10:00:00Z', available_to: '2099-04-19T10:00:00Z', print_from: '2099-10-01T10:00:00Z', print_to: '2099-10-31T10:00:00Z' },
    };
    for (const timezone of [MADRID, NEW_YORK] as const) {
      await setTimezone(timezone);
      const holder = await customer();
      const code = await issue(await discount(coupon), holder);
      expect(await reads(code, holder), timezone).toEqual([expected[timezone], expected[timezone], expected[timezone]]);
    }
    // New York's change falls inside these: 10:00 on March 1 (UTC-5) to 10:00 on March 11 (UTC-4), 10:00 on October 30 (UTC-4) to 10:00 on November 4 (UTC-5).
    const holder = await customer();
    const code = await issue(await discount({ available_from: '2099-03-01T15:00:00Z', available_days: 10, printable: true, print_from: '2099-10-30T14:00:00Z', print_days: 5 }), holder);
    expect((await reads(code, holder))[0]).toEqual({ available_from: '2099-03-01T15:00:00Z', available_to: '2099-03-11T14:00:00Z', print_from: '2099-10-30T14:00:00Z', print_to: '2099-11-04T15:00:00Z' });
  });

  it('ends a count that reaches a local time the clocks skip where they jump, and one they show twice at its first', async () => {
    await setTimezone(MADRID);
    const holder = await customer();
    // 02:30 on February 27 (UTC+1) plus 30 days is 02:30 on March 29, skipped (02:00 became 03:00): 03:00, the jump.
    // 02:30 on September 25 (UTC+2) plus 30 days is 02:30 on October 25, shown twice (03:00 became 02:00): the first.
    const code = await issue(await discount({ available_from: '2099-02-27T01:30:00Z', available_days: 30, printable: true, print_from: '2099-09-25T00:30:00Z', print_days: 30 }), holder);
    expect((await reads(code, holder))[0]).toEqual({ available_from: '2099-02-27T01:30:00Z', available_to: '2099-03-29T01:00:00Z', print_from: '2099-09-25T00:30:00Z', print_to: '2099-10-25T00:30:00Z' });
  });

  // From the issue, with the real clock: counts chosen from today so that their end is past a change of the zone's offset.
  it('counts available_delay_days, available_days, print_delay_days and print_days from the issue as calendar days, whatever today is', async () => {
    for (const timezone of [MADRID, NEW_YORK]) {
      await setTimezone(timezone);
      const days = countAcrossChange(timezone, 'days', 150);
      const delayed = await voucher(await issue(await discount({ available_delay_days: days, printable: true, print_delay_days: days }), await customer()));
      expectLater(delayed.created_at, delayed.available_from, days, 'days', timezone);
      expectLater(delayed.created_at, delayed.print_from, days, 'days', timezone);
      const counted = await voucher(await issue(await discount({ available_days: days, printable: true, print_days: days }), await customer()));
      expect(counted.available_from).toBeNull();
      expectLater(counted.created_at, counted.available_to, days, 'days', timezone);
      expectLater(counted.created_at, counted.print_to, days, 'days', timezone);
    }
  });

  it('ends the voucher of a reward with a relative validity at the local time of the redemption, whatever today is', async () => {
    await setTimezone(MADRID);
    const couponId = (await server.client.get(`/discounts/${await discount({})}`)).body.coupon_info.coupon_id as number;
    for (const [unit, atLeast] of [['days', 150], ['weeks', 20], ['months', 1]] as const) {
      const count = countAcrossChange(MADRID, unit, atLeast);
      const reward = await createReward(server.client, {
        points: 10, type: 'coupon', coupon_id: couponId, validity_duration_type: 'relative', validity_duration_number: count, validity_duration_unit_option: unit,
      });
      const holder = nextCustomer++;
      await customersWithPoints(server.client, [holder], 100);
      const redeemed = await redeem(server.client, reward, holder, { process_actions: true });
      expect(redeemed.status, redeemed.text).toBe(200);
      const [issued] = (await server.client.get('/vouchers', { query: { customer_id: String(holder) } })).body.data;
      expectLater(issued.created_at, issued.available_to, count, unit, MADRID);
    }
  });

  it('ends the voucher of a reward with a fixed validity date at the end of the local day', async () => {
    const couponId = async () => (await server.client.get(`/discounts/${await discount({})}`)).body.coupon_info.coupon_id as number;
    const reward = await createReward(server.client, {
      points: 10, type: 'coupon', coupon_id: await couponId(), validity_duration_type: 'fixed', validity_duration_date: '2030-06-30',
    });
    const expected = { [KIRITIMATI]: '2030-06-30T09:59:59Z', [MEXICO_CITY]: '2030-07-01T05:59:59Z' };
    for (const timezone of [KIRITIMATI, MEXICO_CITY] as const) {
      await setTimezone(timezone);
      const holder = nextCustomer++;
      await customersWithPoints(server.client, [holder], 100);
      const redeemed = await redeem(server.client, reward, holder, { process_actions: true });
      expect(redeemed.status, redeemed.text).toBe(200);
      const vouchers = await server.client.get('/vouchers', { query: { customer_id: String(holder) } });
      expect(vouchers.body.data, timezone).toEqual([expect.objectContaining({ available_to: expected[timezone] })]);
    }
  });

  it('issues the voucher of a won game prize with the coupon\'s dates as the local day\'s bounds', async () => {
    await setTimezone(KIRITIMATI);
    const campaign = await discount({ available_from: '2026-03-01', available_to: '2026-12-31' });
    const game = await server.client.post('/games', {
      rule_params: { name: 'Wheel', select_customers: 'loyalty' },
      game: { type: 'wheel', config: { slices: 8 }, template: 'spin', game_prizes: [{ name: 'Voucher', outcome: 'discount', promotion_id: campaign, weight: 1, stock: 10 }] },
    });
    expect(game.status, game.text).toBe(200);
    const holder = await customer();
    const played = await server.client.post(`/games/${game.body.id}/play`, { customer_id: holder });
    expect(played.status, played.text).toBe(200);
    const { voucher_code: code } = JSON.parse(played.body.effects[0].game_info.outcome);
    expect((await reads(code, holder))[0]).toMatchObject({ available_from: '2026-02-28T10:00:00Z', available_to: '2026-12-31T09:59:59Z' });
  });
});
