/** The table's metrics until the user picks some (spec 2 §9). */
export const TABLE_DEFAULT_METRICS = ['sent_unique', 'sent', 'open', 'opens', 'clicks_unique', 'transactions'];
