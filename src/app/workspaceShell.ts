// The signed-in shell around every workspace page, in a chunk of its own: a report opens with it, without the
// settings pages' code (settingsPages.ts).
export { WorkspaceLayout } from '../features/shell/components/WorkspaceLayout';
export { shellIcons } from './shellIcons';
