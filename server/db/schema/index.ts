// Every table of the product, one file per area; migrations are generated from all of them.
export * from './meta';
export * from './accounts';
export * from './workspaces';
export * from './dataModel';
export * from './reports';
export * from './feedback';
export * from './idempotency';
export * from './targets';
export * from './integrations';
export * from './alerting';
export * from './jobs';
export * from './campaignCollections';
export * from './webhooks';
