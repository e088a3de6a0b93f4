import { createAction } from '@reduxjs/toolkit';

/**
 * The user chose to sign out (the logout link). Dispatched before the browser leaves for the server's logout page,
 * so what this browser kept for them is gone even if they never come back.
 */
export const signedOut = createAction('session/signedOut');

/**
 * Someone other than the last user of this browser is signed in. Slices that hold the previous user's work (open
 * report documents, tabs, list views) drop it.
 */
export const signedInUserChanged = createAction<{ memberId: number }>('session/signedInUserChanged');
