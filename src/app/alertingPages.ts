// The alerting area: the rules list and its edit drawer, loaded together in one chunk.
export { AlertingPage } from '../features/alerting/AlertingPage';
