import { createSlice, isAnyOf, type PayloadAction } from '@reduxjs/toolkit';
import { rootReducer } from '../../store/store';
import { signedInUserChanged, signedOut } from '../session/sessionActions';
import { type AlertDraft } from './alertForm';

/**
 * The 'edit-alert' drawer's form: the draft being edited and what it started from (Reset returns to it). `key`
 * names what is edited (workspace, rule or 'new', copy or not), so reopening the same drawer keeps the draft and
 * opening another starts afresh.
 */
export interface AlertFormState {
  key: string | null;
  /** The id the draft is saved under: the rule's own, or a new one for Add and Duplicate. */
  ruleId: string | null;
  initial: AlertDraft | null;
  draft: AlertDraft | null;
  /** Save was pressed: issues show from then on. */
  submitted: boolean;
}

export const initialAlertFormState: AlertFormState = {
  key: null,
  ruleId: null,
  initial: null,
  draft: null,
  submitted: false,
};

export const alertFormKey = (workspaceId: number, alertId: string | null, copy: boolean) =>
  `${workspaceId}/${alertId ?? 'new'}${copy ? '/copy' : ''}`;

const alertFormSlice = createSlice({
  name: 'alertForm',
  initialState: initialAlertFormState,
  reducers: {
    alertFormOpened(state, action: PayloadAction<{ key: string; ruleId: string; draft: AlertDraft }>) {
      if (state.key === action.payload.key && state.draft) return;
      const { key, ruleId, draft } = action.payload;
      return { key, ruleId, initial: draft, draft, submitted: false };
    },
    alertDraftEdited(state, action: PayloadAction<Partial<AlertDraft>>) {
      if (state.draft) state.draft = { ...state.draft, ...action.payload };
    },
    alertFormReset(state) {
      state.draft = state.initial;
      state.submitted = false;
    },
    alertFormSubmitted(state) {
      state.submitted = true;
    },
    alertFormClosed: () => initialAlertFormState,
  },
  extraReducers: (builder) => {
    builder.addMatcher(isAnyOf(signedInUserChanged, signedOut), () => initialAlertFormState);
  },
  selectors: {
    selectAlertForm: (state) => state,
  },
});

declare module '../../store/store' {
  interface LazyLoadedSlices {
    alertForm: AlertFormState;
  }
}

// With the alerting screens' chunk, so the form's code stays out of the first load; until then its selector reads
// the initial state.
const injectedSlice = alertFormSlice.injectInto(rootReducer);

export const { alertFormOpened, alertDraftEdited, alertFormReset, alertFormSubmitted, alertFormClosed } =
  alertFormSlice.actions;
export const { selectAlertForm } = injectedSlice.selectors;
