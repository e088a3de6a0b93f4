/** List widget limits (spec 2 §5); null shows every value. */
export const LIST_LIMITS = [5, 10, 25, null] as const;
