/**
 * The demo data of every catalogue dataset, as DuckDB SQL over range(). Noise comes from a hash of
 * (seed, tag, row) rather than random(), so the same seed, size and end date always give the same rows,
 * whatever the thread count. Counts are derived from each other (delivered from sent, opens from delivered, …)
 * so the funnel inequalities of the catalogue hold row by row.
 */

export interface GeneratorParams {
  /** Rows of the largest file (campaign_metrics_by_event_date); every other dataset scales from it. */
  rows: number;
  seed: number;
  /** The last day with data, 'YYYY-MM-DD'. */
  endDate: string;
}

/** Days of history of the daily datasets. */
export const HISTORY_DAYS = 730;
/** Months of engagement segments. */
export const ENGAGEMENT_MONTHS = 13;
/** Event-date rows per send row: opens and clicks arrive on the send day and the three days after. */
export const EVENT_DAYS = 4;

const countries = `['NL', 'BE', 'DE', 'GB', 'FR', 'US', 'ES', 'IT']`;
const countryShares = `[0.38, 0.16, 0.14, 0.09, 0.08, 0.06, 0.05, 0.04]`;
const lists = `['Newsletter NL', 'Newsletter BE', 'Customers', 'Prospects', 'VIP', 'Webshop buyers']`;
const listSizes = `[42000, 18000, 65000, 23000, 5200, 31000]`;
const listIntegrations = `['Klaviyo', 'Klaviyo', 'Klaviyo', 'Klaviyo', 'Spotler MailPro', 'Spotler MailPro']`;

/** An SQL list literal's element for a 0-based integer index. */
const pick = (list: string, index: string) => `(${list})[(${index})::INTEGER + 1]`;

export function assertParams(params: GeneratorParams): void {
  if (!Number.isInteger(params.rows) || params.rows < 1000 || params.rows > 50_000_000) {
    throw new Error('rows must be an integer between 1000 and 50000000');
  }
  if (!Number.isInteger(params.seed) || params.seed < 0 || params.seed > 2 ** 31) {
    throw new Error('seed must be a non-negative integer');
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(params.endDate) || Number.isNaN(Date.parse(params.endDate))) {
    throw new Error('endDate must be a date YYYY-MM-DD');
  }
}

/**
 * Statements creating one table per catalogue dataset (named after its id) plus a few helper tables.
 * Parameters are validated numbers and a validated date, so interpolation is safe.
 * Long because it is the generator's SQL, one statement per table read top to bottom, each building on the tables
 * above it; split up, the order they depend on would be harder to see.
 */
export function generatorStatements(params: GeneratorParams): string[] {
  assertParams(params);
  const { seed, endDate } = params;
  const sendRows = Math.max(64, Math.floor(params.rows / EVENT_DAYS));
  const campaigns = Math.max(8, Math.floor(sendRows / 8));
  const ga4Combos = Math.min(11520, Math.max(4, Math.ceil(params.rows / 10 / HISTORY_DAYS)));
  const ecommerceRows = Math.max(1000, Math.floor(params.rows / 10));
  const contacts = Math.max(500, Math.floor(params.rows / 40));
  const bloomreachCampaigns = Math.max(60, Math.floor(campaigns / 20));

  return [
    // A uniform number in [0, 1) from 53 bits of the hash; roughly normal noise from the sum of three. The outer
    // hash matters: a multi-argument hash only XORs the parts, so u('a', i) and u('b', i) would move together.
    `CREATE OR REPLACE MACRO u(tag, i) AS ((hash(hash(${seed}, tag, i)) >> 11)::DOUBLE / 9007199254740992.0)`,
    `CREATE OR REPLACE MACRO noise(tag, i) AS ((u(tag || '1', i) + u(tag || '2', i) + u(tag || '3', i) - 1.5) * 2)`,
    `CREATE OR REPLACE MACRO clamp01(x) AS greatest(0.0, least(1.0, x))`,

    // Calendar with the send volume weight of each day: weekly rhythm, November peak, growth.
    `CREATE OR REPLACE TABLE days AS
     WITH d AS (
       SELECT i::INTEGER AS day_index, (DATE '${endDate}' - (${HISTORY_DAYS - 1} - i)::INTEGER) AS day
       FROM range(${HISTORY_DAYS}) t(i)
     ), w AS (
       SELECT *,
         CASE dayofweek(day) WHEN 0 THEN 0.35 WHEN 6 THEN 0.45 WHEN 2 THEN 1.2 WHEN 4 THEN 1.15 ELSE 1.0 END AS weekday_factor,
         1 + 0.8 * exp(-pow((dayofyear(day) - 328) / 12.0, 2)) + 0.15 * cos(2 * pi() * (dayofyear(day) - 330) / 365.0)
           AS season_factor,
         1 + 0.5 * day_index / ${HISTORY_DAYS}.0 AS growth_factor
       FROM d
     )
     SELECT *, weekday_factor * season_factor * growth_factor AS weight,
       (sum(weekday_factor * season_factor * growth_factor) OVER (ORDER BY day_index) - weekday_factor * season_factor * growth_factor)
         / sum(weekday_factor * season_factor * growth_factor) OVER () AS cum_start
     FROM w`,

    // Campaigns spread over the days in proportion to the day weights.
    `CREATE OR REPLACE TABLE campaign_base AS
     WITH c AS (SELECT i::INTEGER AS c, (i + 0.5) / ${campaigns}.0 AS pos FROM range(${campaigns}) t(i))
     SELECT c.c, d.day AS send_date, d.day_index, d.season_factor, d.growth_factor,
       CASE WHEN u('type', c.c) < 0.45 THEN 'newsletter' WHEN u('type', c.c) < 0.75 THEN 'promotion'
            WHEN u('type', c.c) < 0.93 THEN 'automation' ELSE 'transactional' END AS campaign_type,
       floor(u('list', c.c) * 6)::INTEGER AS list_index,
       u('outlier', c.c) AS outlier
     FROM c ASOF JOIN days d ON c.pos >= d.cum_start`,

    `CREATE OR REPLACE TABLE campaign_info AS
     SELECT c, send_date, day_index, season_factor, campaign_type, list_index, outlier,
       'cmp-' || c AS campaign_id,
       CASE campaign_type
         WHEN 'newsletter' THEN 'Newsletter ' || strftime(send_date, '%Y-%m-%d')
         WHEN 'promotion' THEN ${pick(`['Black Friday', 'Summer sale', 'New arrivals', 'Spring collection', 'Weekend deal', 'Last chance', 'Members only', 'Clearance']`, `floor(u('theme', c) * 8)`)} || ' ' || strftime(send_date, '%b %Y')
         WHEN 'automation' THEN ${pick(`['Welcome flow', 'Abandoned cart', 'Post-purchase', 'Win-back', 'Birthday']`, `floor(u('flow', c) * 5)`)}
         ELSE ${pick(`['Order confirmation', 'Shipping update', 'Password reset']`, `floor(u('flow', c) * 3)`)}
       END AS campaign_name,
       ${pick(
         `['Our picks for you this week', 'Don''t miss out!', 'Only today: free shipping', 'New in: the autumn edit', 'Your cart is waiting', 'Welcome to the club', 'Thanks for your order', 'We miss you', '20% off everything', 'Fresh arrivals just landed', 'Your weekly update', 'Last chance to save', 'Handpicked for you', 'The sale starts now', 'A little gift for you', 'Back in stock']`,
         `floor(u('subject', c) * 16)`,
       )} AS subject_line,
       ${pick(lists, 'list_index')} AS list_name,
       ${pick(listIntegrations, 'list_index')} AS integration_name,
       ${pick('[8, 9, 9, 10, 10, 10, 11, 12, 14, 16, 19, 20, 20, 21]', `floor(u('hour', c) * 14)`)} AS send_hour,
       u('ab', c) < 0.12 AS is_ab_test,
       lower(replace(campaign_type, ' ', '_')) || '_' || c AS utm_campaign,
       CASE WHEN list_index >= 4 THEN 'mailpro' ELSE 'klaviyo' END AS utm_source,
       'email' AS utm_medium,
       'https://view.openrate.app/c/' || c AS webview_url,
       ${pick(listSizes, 'list_index')} * growth_factor
         * CASE campaign_type WHEN 'newsletter' THEN 0.9 WHEN 'promotion' THEN 1.0 WHEN 'automation' THEN 0.08 ELSE 0.05 END
         * (0.8 + 0.4 * u('size', c))
         -- Volume outliers: a handful of sends to the whole database.
         * CASE WHEN outlier < 0.003 THEN 6 ELSE 1 END AS audience
     FROM campaign_base`,

    `CREATE OR REPLACE TABLE send_rows AS
     WITH r AS (
       SELECT ci.*, k::INTEGER AS k, ci.c * 8 + k AS r, ${pick(countries, 'k')} AS country, ${pick(countryShares, 'k')} AS share
       FROM campaign_info ci, range(8) t(k)
     ), s AS (
       SELECT *, greatest(1, round(audience * share * (0.9 + 0.2 * u('sent', r))))::INTEGER AS sent,
         -- Bounce outliers: a broken list import now and then.
         0.006 + 0.012 * u('bounce', r) + CASE WHEN outlier BETWEEN 0.006 AND 0.008 THEN 0.15 ELSE 0 END AS bounce_share
       FROM r
     ), b AS (
       SELECT *, round(sent * bounce_share)::INTEGER AS bounces FROM s
     ), o AS (
       SELECT *, sent - bounces AS delivered,
         (sent - floor(sent * 0.003 * u('dup', r)))::INTEGER AS sent_unique,
         round(bounces * (0.25 + 0.3 * u('hard', r)))::INTEGER AS hard_bounces,
         clamp01(CASE campaign_type WHEN 'newsletter' THEN 0.30 WHEN 'promotion' THEN 0.24 WHEN 'automation' THEN 0.42 ELSE 0.55 END
           * (0.8 + 0.4 * u('open', r)) * CASE country WHEN 'US' THEN 0.8 WHEN 'NL' THEN 1.08 ELSE 1 END) AS open_share
       FROM b
     ), op AS (
       SELECT *, round(delivered * open_share)::INTEGER AS open FROM o
     ), cl AS (
       SELECT *,
         round(open * CASE WHEN outlier BETWEEN 0.003 AND 0.006 THEN 0.6
           ELSE CASE campaign_type WHEN 'newsletter' THEN 0.12 WHEN 'promotion' THEN 0.16 WHEN 'automation' THEN 0.2 ELSE 0.08 END
             * (0.7 + 0.6 * u('ctor', r)) END)::INTEGER AS clicks_unique
       FROM op
     ), se AS (
       SELECT *, (clicks_unique + round(clicks_unique * (0.1 + 0.6 * u('clicks', r))))::INTEGER AS clicks FROM cl
     ), tr AS (
       SELECT *, round(clicks * (0.55 + 0.35 * u('sessions', r)))::INTEGER AS sessions FROM se
     ), tx AS (
       SELECT *, round(sessions * (CASE campaign_type WHEN 'promotion' THEN 0.05 ELSE 0.025 END) * (0.6 + 0.8 * u('conv', r))
         * (0.7 + 0.3 * season_factor))::INTEGER AS transactions
       FROM tr
     )
     SELECT r, c, k, campaign_id, send_date, campaign_name, subject_line, campaign_type, list_name, integration_name,
       country, dayofweek(send_date)::INTEGER AS send_weekday, month(send_date)::INTEGER AS send_month,
       send_hour::INTEGER AS send_hour, is_ab_test, utm_campaign, utm_source, utm_medium, webview_url,
       sent, sent_unique, delivered, bounces, hard_bounces, (bounces - hard_bounces)::INTEGER AS soft_bounces,
       open, (open + round(open * (0.2 + 0.7 * u('opens', r))))::INTEGER AS opens, clicks_unique, clicks,
       round(delivered * 0.0025 * (0.3 + 1.4 * u('unsub', r)))::INTEGER AS unsubscribes,
       round(delivered * 0.0003 * u('complaint', r))::INTEGER AS complaints,
       sessions, transactions,
       -- Revenue in whole cents so the event-day split adds up exactly.
       round(transactions * (45 + 65 * u('aov', r)) * 100)::BIGINT AS revenue_cents
     FROM tx`,

    `CREATE OR REPLACE TABLE campaign_metrics_by_send_date AS
     SELECT send_date, campaign_id, campaign_name, subject_line, campaign_type, list_name, integration_name, country,
       send_weekday, send_month, send_hour, is_ab_test, utm_campaign, utm_source, utm_medium, webview_url,
       sent, sent_unique, delivered, bounces, hard_bounces, soft_bounces, open, opens, clicks_unique, clicks,
       unsubscribes, complaints, sessions, transactions, revenue_cents / 100.0 AS revenue
     FROM send_rows ORDER BY r`,

    // Engagement arrives over four days (62%, 22%, 11%, 5%); later days take their floor, day 0 the rest.
    `CREATE OR REPLACE TABLE campaign_metrics_by_event_date AS
     WITH e AS (
       SELECT s.*, d::INTEGER AS d, (s.send_date + d::INTEGER) AS event_date,
         ${pick('[0.0, 0.22, 0.11, 0.05]', 'd')} AS later_share
       FROM send_rows s, range(${EVENT_DAYS}) t(d)
     )
     SELECT event_date, send_date, campaign_id, campaign_name, subject_line, campaign_type, list_name, integration_name,
       country, send_weekday, send_month, send_hour, is_ab_test, utm_campaign, utm_source, utm_medium, webview_url,
       ${['sent', 'sent_unique', 'delivered', 'bounces', 'hard_bounces', 'soft_bounces']
         .map((m) => `CASE WHEN d = 0 THEN ${m} ELSE 0 END::INTEGER AS ${m}`)
         .join(', ')},
       ${['open', 'opens', 'clicks_unique', 'clicks', 'unsubscribes', 'complaints', 'sessions', 'transactions']
         .map(
           (m) =>
             `CASE WHEN d = 0 THEN ${m} - floor(${m} * 0.22) - floor(${m} * 0.11) - floor(${m} * 0.05) ELSE floor(${m} * later_share) END::INTEGER AS ${m}`,
         )
         .join(', ')},
       CASE WHEN d = 0 THEN revenue_cents - floor(revenue_cents * 0.22) - floor(revenue_cents * 0.11) - floor(revenue_cents * 0.05)
         ELSE floor(revenue_cents * later_share) END / 100.0 AS revenue
     FROM e WHERE event_date <= DATE '${endDate}'
     ORDER BY r, d`,

    // Members per list and day: a running total of daily joins and leaves, with a few import spikes.
    `CREATE OR REPLACE TABLE list_members AS
     WITH l AS (
       SELECT d.day, d.day_index, d.weekday_factor, li::INTEGER AS li, li * ${HISTORY_DAYS} + d.day_index AS r
       FROM days d, range(6) t(li)
     ), f AS (
       SELECT *, ${pick(listSizes, 'li')} AS base,
         round(${pick(listSizes, 'li')} * 0.004 * weekday_factor * (0.5 + u('in', r))
           * CASE WHEN u('import', r) < 0.004 THEN 25 ELSE 1 END)::INTEGER AS members_in,
         round(${pick(listSizes, 'li')} * 0.0028 * (0.5 + u('out', r)))::INTEGER AS members_out
       FROM l
     )
     SELECT day AS date, 'list-' || (li + 1) AS list_id, ${pick(lists, 'li')} AS list_name,
       ${pick(listIntegrations, 'li')} AS integration_name,
       (round(base * 0.7) + sum(members_in - members_out) OVER (PARTITION BY li ORDER BY day_index))::INTEGER AS members,
       members_in, members_out, (members_in - members_out)::INTEGER AS members_delta
     FROM f ORDER BY li, day_index`,

    `CREATE OR REPLACE TABLE ga4 AS
     WITH combos AS (
       SELECT i::INTEGER AS combo,
         ${pick(`['google', 'klaviyo', 'facebook', 'instagram', '(direct)', 'bing', 'newsletter', 'tiktok']`, 'i % 8')} AS session_source,
         ${pick(`['organic', 'email', 'cpc', 'referral', '(none)', 'social']`, '(i // 8) % 6')} AS session_medium,
         ${pick(`['(not set)', 'black_friday', 'summer_sale', 'newsletter', 'welcome', 'retargeting', 'brand', 'spring_launch', 'winback', 'loyalty']`, '(i // 48) % 10')} AS session_campaign,
         ${pick(`['desktop', 'mobile', 'tablet']`, '(i // 480) % 3')} AS device_category,
         ${pick(countries, '(i // 1440) % 8')} AS country,
         ${pick(countryShares, '(i // 1440) % 8')} * ${pick('[0.4, 0.5, 0.1]', '(i // 480) % 3')} AS combo_share,
         u('combo', i) AS popularity
       FROM range(11520) t(i)
     ), chosen AS (
       SELECT *, 'https://shop.example.com/' || CASE WHEN session_campaign = '(not set)' THEN '' ELSE 'campaign/' || session_campaign END
           AS landing_page
       FROM combos ORDER BY popularity LIMIT ${ga4Combos}
     ), g AS (
       SELECT d.day, d.day_index, d.weight, ch.*, ch.combo * ${HISTORY_DAYS} + d.day_index AS r
       FROM days d, chosen ch
     ), s AS (
       SELECT *, round(4000 * combo_share * weight * (0.3 + 1.4 * popularity) * (0.75 + 0.5 * u('sessions', r))
         * CASE WHEN u('spike', r) < 0.001 THEN 8 ELSE 1 END)::INTEGER AS sessions
       FROM g
     ), us AS (
       SELECT *, round(sessions * (0.7 + 0.25 * u('users', r)))::INTEGER AS total_users FROM s
     )
     SELECT day AS date, session_source, session_medium, session_campaign, device_category, country, landing_page,
       sessions, total_users, round(total_users * (0.2 + 0.4 * u('new', r)))::INTEGER AS new_users,
       round(sessions * (0.5 + 0.3 * u('engaged', r)))::INTEGER AS engaged_sessions,
       round(sessions * 0.02 * (0.5 + u('tx', r)))::INTEGER AS transactions,
       round(round(sessions * 0.02 * (0.5 + u('tx', r))) * (40 + 70 * u('rev', r)), 2) AS purchase_revenue
     FROM us ORDER BY day_index, combo`,

    // One row per customer within its cell, so count_distinct(customer_id) counts customers.
    `CREATE OR REPLACE TABLE ecommerce AS
     WITH o AS (
       SELECT i, u('eday', i) AS pos,
         'cust-' || floor(u('customer', i) * ${Math.floor(ecommerceRows / 4)})::INTEGER AS customer_id,
         ${pick(`['email', 'organic', 'paid', 'direct', 'social']`, `floor(u('channel', i) * 5)`)} AS channel,
         ${pick(`['Apparel', 'Shoes', 'Accessories', 'Home', 'Beauty']`, `floor(u('category', i) * 5)`)} AS product_category,
         ${pick(countries, `floor(pow(u('country', i), 1.8) * 8)`)} AS country,
         CASE WHEN u('newcust', i) < 0.28 THEN 'new' ELSE 'returning' END AS customer_type,
         1 + (u('orders', i) < 0.08)::INTEGER AS orders
       FROM range(${ecommerceRows}) t(i)
     ), p AS (
       SELECT d.day, o.*, o.orders * (1 + floor(u('items', o.i) * 4))::INTEGER AS items
       FROM o ASOF JOIN days d ON o.pos >= d.cum_start
     )
     SELECT day AS order_date, channel, product_category, country, customer_type, customer_id,
       sum(orders)::INTEGER AS orders,
       -- Whole cents per line, so the sum does not depend on the order threads add it up in.
       sum(round(items * (12 + 60 * u('price', i)) * 100)::BIGINT) / 100.0 AS revenue, sum(items)::INTEGER AS items
     FROM p GROUP BY ALL ORDER BY order_date, channel, product_category, country, customer_type, customer_id`,

    `CREATE OR REPLACE TABLE forms AS
     WITH f AS (
       SELECT d.day, d.day_index, d.weight, fi::INTEGER AS fi, si::INTEGER AS si, (fi * 3 + si) * ${HISTORY_DAYS} + d.day_index AS r
       FROM days d, range(6) a(fi), range(3) b(si)
     ), v AS (
       SELECT *, round(300 * weight * ${pick('[1.0, 0.6, 0.4, 0.3, 0.2, 0.15]', 'fi')} * ${pick('[0.5, 0.3, 0.2]', 'si')}
         * (0.7 + 0.6 * u('views', r)))::INTEGER AS views
       FROM f
     )
     SELECT day AS date, ${pick(`['Newsletter signup', 'Footer signup', 'Exit intent popup', 'Spin the wheel', 'Contact form', 'Back in stock alert']`, 'fi')} AS form_name,
       ${pick(`['embedded', 'embedded', 'popup', 'popup', 'embedded', 'flyout']`, 'fi')} AS form_type,
       ${pick(`['website', 'instagram', 'facebook']`, 'si')} AS source,
       views, round(views * ${pick('[0.06, 0.03, 0.09, 0.14, 0.02, 0.05]', 'fi')} * (0.6 + 0.8 * u('subs', r)))::INTEGER AS submissions
     FROM v ORDER BY day_index, fi, si`,

    `CREATE OR REPLACE TABLE squeezely AS
     WITH q AS (
       SELECT d.day, d.day_index, d.weight, ci::INTEGER AS ci, hi::INTEGER AS hi, gi::INTEGER AS gi,
         ((ci * 3 + hi) * 3 + gi) * ${HISTORY_DAYS} + d.day_index AS r
       FROM days d, range(5) a(ci), range(3) b(hi), range(3) c(gi)
     ), i AS (
       SELECT *, round(2500 * weight * ${pick('[0.5, 0.3, 0.2]', 'hi')} * (0.6 + 0.8 * u('imp', r)))::INTEGER AS impressions FROM q
     ), c AS (
       SELECT *, round(impressions * 0.025 * (0.5 + u('clk', r)))::INTEGER AS clicks FROM i
     ), v AS (
       SELECT *, round(clicks * 0.04 * (0.5 + u('conv', r)))::INTEGER AS conversions FROM c
     )
     SELECT day AS date, ${pick(`['Browse abandonment', 'Product recommendations', 'Lookalike audience', 'Retargeting', 'Seasonal promo']`, 'ci')} AS campaign_name,
       ${pick(`['web', 'email', 'social']`, 'hi')} AS channel, ${pick(`['Visitors', 'Buyers', 'Loyal customers']`, 'gi')} AS segment,
       impressions, clicks, conversions, round(conversions * (35 + 50 * u('rev', r)), 2) AS revenue
     FROM v ORDER BY day_index, ci, hi, gi`,

    `CREATE OR REPLACE TABLE bloomreach AS
     WITH c AS (SELECT i::INTEGER AS c, (i + 0.5) / ${bloomreachCampaigns}.0 AS pos FROM range(${bloomreachCampaigns}) t(i)),
     cd AS (SELECT c.c, d.day, d.growth_factor FROM c ASOF JOIN days d ON c.pos >= d.cum_start),
     r AS (
       SELECT cd.*, hi::INTEGER AS hi, ki::INTEGER AS ki, (cd.c * 3 + hi) * 4 + ki AS r
       FROM cd, range(3) a(hi), range(4) b(ki)
     ), s AS (
       SELECT *, round(9000 * growth_factor * ${pick('[1.0, 0.25, 0.4]', 'hi')} * ${pick('[0.45, 0.25, 0.2, 0.1]', 'ki')}
         * (0.7 + 0.6 * u('sent', r)))::INTEGER AS sent
       FROM r
     ), d AS (
       SELECT *, round(sent * (0.95 + 0.04 * u('del', r)))::INTEGER AS delivered FROM s
     ), o AS (
       SELECT *, round(delivered * ${pick('[0.28, 0.0, 0.09]', 'hi')} * (0.7 + 0.6 * u('open', r)))::INTEGER AS open FROM d
     ), k AS (
       SELECT *, round(CASE WHEN hi = 1 THEN delivered * 0.04 ELSE open * 0.14 END * (0.6 + 0.8 * u('clk', r)))::INTEGER
         AS clicks_unique
       FROM o
     )
     SELECT day AS send_date,
       ${pick(`['Weekly deals', 'Flash sale', 'New collection', 'Loyalty points', 'Cart reminder', 'Price drop']`, `floor(u('name', c) * 6)`)} || ' ' || strftime(day, '%d %b') AS campaign_name,
       ${pick(`['email', 'sms', 'push']`, 'hi')} AS channel, ${pick(`['NL', 'BE', 'DE', 'GB']`, 'ki')} AS country,
       sent, delivered, open, clicks_unique,
       round(clicks_unique * 0.05 * (0.5 + u('tx', r)))::INTEGER AS transactions,
       round(round(clicks_unique * 0.05 * (0.5 + u('tx', r))) * (40 + 60 * u('rev', r)), 2) AS revenue
     FROM k ORDER BY c, hi, ki`,

    // The licence's workspaces: this workspace's daily campaign totals scaled per workspace and day. One
    // factor per row keeps every inequality of the totals (rounding is monotonic).
    `CREATE OR REPLACE TABLE workspaces AS
     WITH t AS (
       SELECT send_date AS date, sum(sent) AS sent, sum(sent_unique) AS sent_unique, sum(delivered) AS delivered,
         sum(bounces) AS bounces, sum(hard_bounces) AS hard_bounces, sum(soft_bounces) AS soft_bounces,
         sum(open) AS open, sum(opens) AS opens, sum(clicks_unique) AS clicks_unique, sum(clicks) AS clicks,
         sum(unsubscribes) AS unsubscribes, sum(complaints) AS complaints, sum(sessions) AS sessions,
         sum(transactions) AS transactions, sum(revenue_cents) AS revenue_cents
       FROM send_rows GROUP BY send_date
     ), w AS (
       SELECT t.*, wi::INTEGER AS wi, ${pick('[1.0, 0.6, 0.35]', 'wi')} * (0.85 + 0.3 * u('ws', wi * 100000 + (t.date - DATE '2000-01-01'))) AS f
       FROM t, range(3) a(wi)
     )
     SELECT date, 'ws-' || (wi + 1) AS workspace_id,
       ${pick(`['Openrate Fashion', 'Openrate Home', 'Openrate Outdoor']`, 'wi')} AS workspace_name,
       ${[
         'sent',
         'sent_unique',
         'delivered',
         'bounces',
         'hard_bounces',
         'soft_bounces',
         'open',
         'opens',
         'clicks_unique',
         'clicks',
         'unsubscribes',
         'complaints',
         'sessions',
         'transactions',
       ]
         .map((m) => `round(${m} * f)::INTEGER AS ${m}`)
         .join(', ')},
       round(revenue_cents * f) / 100.0 AS revenue
     FROM w ORDER BY date, wi`,

    // The archive covers the two years before the main history.
    `CREATE OR REPLACE TABLE mailchimp_archive AS
     WITH c AS (
       SELECT i::INTEGER AS c, DATE '${endDate}' - ${HISTORY_DAYS}
         - (floor(u('archive_day', i) * ${HISTORY_DAYS}))::INTEGER AS send_date
       FROM range(240) t(i)
     ), r AS (
       SELECT c.*, li::INTEGER AS li, c.c * 2 + li AS r FROM c, range(2) a(li)
     ), s AS (
       SELECT *, round(${pick('[24000, 9000]', 'li')} * (0.8 + 0.4 * u('sent', r)))::INTEGER AS sent FROM r
     ), o AS (
       SELECT *, round(sent * (0.18 + 0.15 * u('open', r)))::INTEGER AS open FROM s
     )
     SELECT send_date, 'Mailchimp newsletter ' || strftime(send_date, '%Y-%m-%d') AS campaign_name,
       ${pick(`['Main list', 'Old customers']`, 'li')} AS list_name, sent, open,
       round(open * (0.08 + 0.1 * u('clk', r)))::INTEGER AS clicks_unique,
       round(sent * 0.002 * (0.3 + 1.4 * u('unsub', r)))::INTEGER AS unsubscribes
     FROM o ORDER BY send_date, c, li`,

    `CREATE OR REPLACE TABLE website_metrics_ga_api AS
     WITH w AS (
       SELECT d.day, d.day_index, d.weight, ci::INTEGER AS ci, ci * ${HISTORY_DAYS} + d.day_index AS r
       FROM days d, range(20) a(ci)
     ), s AS (
       SELECT *, round(1800 * weight * (1.0 / (ci + 1)) * (0.7 + 0.6 * u('sessions', r))
         * CASE WHEN u('spike', r) < 0.002 THEN 6 ELSE 1 END)::INTEGER AS sessions
       FROM w
     )
     SELECT day AS date,
       ${pick(`['google', 'klaviyo', '(direct)', 'facebook', 'bing']`, 'ci % 5')} AS source,
       ${pick(`['organic', 'email', '(none)', 'social']`, 'ci % 4')} AS medium,
       ${pick(`['(not set)', 'newsletter', 'black_friday', 'summer_sale', 'welcome']`, '(ci // 4) % 5')} AS campaign,
       sessions, round(sessions * (1.5 + 2.5 * u('pv', r)))::INTEGER AS pageviews,
       round(sessions * 0.018 * (0.5 + u('tx', r)))::INTEGER AS transactions,
       round(round(sessions * 0.018 * (0.5 + u('tx', r))) * (40 + 70 * u('rev', r)), 2) AS revenue,
       round(sessions * (0.3 + 0.3 * u('bounce', r)))::INTEGER AS bounces
     FROM s ORDER BY day_index, ci`,

    // Engagement: each contact joins in some month (before the window for most), may leave later, and drifts
    // between segments with a personal level, a slow cycle and noise. Segment 'new' is the join month.
    `CREATE OR REPLACE TABLE engagement_contact_months AS
     WITH c AS (
       SELECT i::INTEGER AS i, CASE WHEN u('integration', i) < 0.65 THEN 1 ELSE 2 END AS integration,
         floor(u('join', i) * ${ENGAGEMENT_MONTHS + 18})::INTEGER - 18 AS join_month,
         CASE WHEN u('leaves', i) < 0.3 THEN floor(u('join', i) * ${ENGAGEMENT_MONTHS + 18})::INTEGER - 18 + 1
           + floor(u('leave', i) * ${ENGAGEMENT_MONTHS})::INTEGER ELSE 1000 END AS leave_month,
         0.15 + 0.75 * u('level', i) AS level, 6.283 * u('phase', i) AS phase
       FROM range(${contacts}) t(i)
     ), m AS (
       SELECT c.*, m::INTEGER AS m, c.i * 100 + m AS r,
         clamp01(level + 0.2 * sin(phase + m * 0.9) + 0.08 * noise('score', c.i * 100 + m)) AS score
       FROM c, range(${ENGAGEMENT_MONTHS}) t(m)
       -- The second integration was disconnected two months ago, so the integrations' month ranges differ.
       WHERE m >= join_month AND m < leave_month AND (integration = 1 OR m < ${ENGAGEMENT_MONTHS - 2})
     ), s AS (
       SELECT *, 4 + floor(8 * u('sends', r))::INTEGER AS send_total FROM m
     )
     SELECT i, integration, m, (date_trunc('month', DATE '${endDate}') - to_months(${ENGAGEMENT_MONTHS - 1} - m))::DATE AS month,
       CASE WHEN m = join_month THEN 'new' WHEN score > 0.78 THEN 'highly_engaged' WHEN score > 0.5 THEN 'engaged'
            WHEN score > 0.28 THEN 'at_risk' ELSE 'inactive' END AS segment_id,
       send_total, round(send_total * score * score * 0.6)::INTEGER AS click_total,
       round((1 - score) * 150 + 3 * u('dslc', r))::INTEGER AS days_since_last_click
     FROM s`,

    `CREATE OR REPLACE TABLE engagement_contacts AS
     SELECT month, 'contact-' || i AS contact_id, 'int-' || integration AS integration_id, segment_id
     FROM engagement_contact_months ORDER BY integration, m, i`,

    `CREATE OR REPLACE TABLE engagement_segments AS
     WITH seg AS (
       SELECT * FROM (VALUES (0, 'new', 'New'), (1, 'highly_engaged', 'Highly engaged'), (2, 'engaged', 'Engaged'),
         (3, 'at_risk', 'At risk'), (4, 'inactive', 'Inactive')) v(pos, segment_id, segment_name)
     ), months AS (SELECT DISTINCT integration, m, month FROM engagement_contact_months),
     grid AS (SELECT months.*, seg.* FROM months, seg),
     cur AS (
       SELECT a.integration, a.m, a.segment_id, b.segment_id AS previous, a.i
       FROM engagement_contact_months a
       LEFT JOIN engagement_contact_months b ON b.i = a.i AND b.m = a.m - 1
     ), prev AS (
       SELECT b.integration, b.m + 1 AS m, b.segment_id AS previous, a.segment_id AS next
       FROM engagement_contact_months b
       LEFT JOIN engagement_contact_months a ON a.i = b.i AND a.m = b.m + 1
       WHERE b.m + 1 < ${ENGAGEMENT_MONTHS}
     ), stats AS (
       SELECT integration, m, segment_id, count(*)::INTEGER AS size,
         sum(days_since_last_click)::INTEGER AS days_since_last_click_total,
         sum(click_total)::INTEGER AS click_total, sum(send_total)::INTEGER AS send_total
       FROM engagement_contact_months GROUP BY ALL
     ), inflow AS (
       SELECT integration, m, segment_id,
         ${['new', 'highly_engaged', 'engaged', 'at_risk', 'inactive']
           .map((s) => `count(*) FILTER (WHERE previous = '${s}')::INTEGER AS inflow_from_${s}`)
           .join(', ')},
         count(*) FILTER (WHERE previous IS NULL)::INTEGER AS inflow_new
       FROM cur WHERE m > 0 GROUP BY ALL
     ), outflow AS (
       SELECT integration, m, previous AS segment_id,
         ${['new', 'highly_engaged', 'engaged', 'at_risk', 'inactive']
           .map((s) => `count(*) FILTER (WHERE next = '${s}')::INTEGER AS outflow_to_${s}`)
           .join(', ')},
         count(*) FILTER (WHERE next IS NULL)::INTEGER AS outflow_gone
       FROM prev GROUP BY ALL
     )
     SELECT g.month AS date, 'int-' || g.integration AS integration_id,
       CASE g.integration WHEN 1 THEN 'Klaviyo' ELSE 'Spotler MailPro' END AS integration_name,
       g.segment_id, g.segment_name, coalesce(s.size, 0)::INTEGER AS size,
       coalesce(s.days_since_last_click_total, 0)::INTEGER AS days_since_last_click_total,
       coalesce(s.click_total, 0)::INTEGER AS click_total, coalesce(s.send_total, 0)::INTEGER AS send_total,
       ${['new', 'highly_engaged', 'engaged', 'at_risk', 'inactive']
         .map((s) => `coalesce(i.inflow_from_${s}, 0)::INTEGER AS inflow_from_${s}`)
         .join(', ')},
       coalesce(i.inflow_new, 0)::INTEGER AS inflow_new,
       ${['new', 'highly_engaged', 'engaged', 'at_risk', 'inactive']
         .map((s) => `coalesce(o.outflow_to_${s}, 0)::INTEGER AS outflow_to_${s}`)
         .join(', ')},
       coalesce(o.outflow_gone, 0)::INTEGER AS outflow_gone
     FROM grid g
     LEFT JOIN stats s USING (integration, m, segment_id)
     LEFT JOIN inflow i USING (integration, m, segment_id)
     LEFT JOIN outflow o USING (integration, m, segment_id)
     ORDER BY g.integration, g.m, g.pos`,
  ];
}
