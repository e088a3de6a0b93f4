import { notSupportedYet, WidgetEmpty } from '../WidgetStates';

/** Targets come with the targets feature; until then a saved target widget says so in its place. */
export function TargetWidget() {
  return <WidgetEmpty icon="warning-sign" title={notSupportedYet('Target')} />;
}
