import { Button, ButtonGroup, Intent, Menu, MenuItem, PopoverNext, Tag, Tooltip } from '@blueprintjs/core';
import { useCallback, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { type Report } from '../../../contracts/reports';
import { type DayRange } from '../../../engine/dates';
import { useAppDispatch, useAppSelector } from '../../../store/hooks';
import { annotationsInPeriod } from '../../annotations/annotationForm';
import { useGetAnnotationsQuery } from '../../annotations/annotationsApi';
import { DateRangePicker } from '../../date-range/DateRangePicker';
import { localToday, resolveConfigDateRanges } from '../../date-range/ranges';
import { selectFirstDayOfWeek } from '../../prefs/prefsSlice';
import { openDrawerParams } from '../../shell/drawers';
import { can } from '../reportsApi';
import { useReportView } from '../reportViews';
import {
  discarded,
  documentClosed,
  documentEdited,
  type DocumentView,
  redone,
  renamed,
  undone,
} from '../state/reportDocumentSlice';
import { SAVE_CHOICE_LABELS, saveChoices } from '../state/saveChoices';
import { reportPath, useReportActions } from '../useReportActions';
import { useReportShortcuts } from '../useReportShortcuts';
import { useSaveReport } from '../useSaveReport';
import { DeleteReportDialog, RenameReportDialog } from './ReportDialogs';

export interface ReportToolbarProps {
  /** The server copy: access and share levels, id and type. */
  report: Report;
  reportKey: string;
  /** The local document being edited. */
  document: DocumentView;
}

/** The report page toolbar (spec 2 §2); buttons the access level does not allow are not shown (spec 2 §6). */
export function ReportToolbar({ report, reportKey: key, document }: ReportToolbarProps) {
  const dispatch = useAppDispatch();
  const { save, saving } = useSaveReport({ workspaceId: report.workspace_id, type: report.type, id: report.id });
  const choices = saveChoices(report.access_level, report.share_level);
  const [primary, ...more] = choices;
  const weekStart = useAppSelector(selectFirstDayOfWeek);
  const { ToolbarActions, dateComparison } = useReportView(report.type);

  const undo = useCallback(() => dispatch(undone({ key })), [dispatch, key]);
  const redo = useCallback(() => dispatch(redone({ key })), [dispatch, key]);
  useReportShortcuts({ undo, redo, save: () => document.dirty && !saving && void save(primary) });

  return (
    <div className="or-report-toolbar" role="toolbar" aria-label="Report toolbar">
      <ButtonGroup variant="minimal">
        <Tooltip content="Undo" placement="bottom">
          <Button icon="undo" aria-label="Undo" disabled={!document.canUndo} onClick={undo} />
        </Tooltip>
        <Tooltip content="Redo" placement="bottom">
          <Button icon="redo" aria-label="Redo" disabled={!document.canRedo} onClick={redo} />
        </Tooltip>
        <Button text="Discard" disabled={!document.dirty} onClick={() => dispatch(discarded({ key }))} />
      </ButtonGroup>
      <ButtonGroup>
        <Button
          intent={Intent.PRIMARY}
          text={SAVE_CHOICE_LABELS[primary]}
          disabled={!document.dirty}
          loading={saving}
          onClick={() => void save(primary)}
        />
        {more.length > 0 && (
          <PopoverNext
            shouldReturnFocusOnClose={false}
            placement="bottom-end"
            disabled={!document.dirty || saving}
            content={
              <Menu>
                {more.map((choice) => (
                  <MenuItem key={choice} text={SAVE_CHOICE_LABELS[choice]} onClick={() => void save(choice)} />
                ))}
              </Menu>
            }
          >
            <Button
              intent={Intent.PRIMARY}
              icon="caret-down"
              aria-label="More save choices"
              disabled={!document.dirty || saving}
            />
          </PopoverNext>
        )}
      </ButtonGroup>
      {ToolbarActions && <ToolbarActions report={report} reportKey={key} config={document.config} />}
      <DateRangePicker
        value={document.config.dateRanges}
        comparison={dateComparison}
        weekStart={weekStart}
        onApply={(dateRanges) => dispatch(documentEdited({ key, config: { ...document.config, dateRanges } }))}
      />
      <span className="or-report-toolbar-end">
        <AnnotationsButton
          workspaceId={report.workspace_id}
          period={resolveConfigDateRanges(document.config.dateRanges, localToday(), weekStart).main}
        />
        {can.share(report.access_level) && <ShareButton report={report} />}
        <ReportMenu report={report} reportKey={key} />
      </span>
    </div>
  );
}

/**
 * Annotations belong to the report's period (issue: finish the screens): the badge counts those overlapping the
 * report's main date range, and the drawer opens on that range.
 */
function AnnotationsButton({ workspaceId, period }: { workspaceId: number; period: DayRange }) {
  const [params, setParams] = useSearchParams();
  const { data: annotations } = useGetAnnotationsQuery(workspaceId);
  const count = annotationsInPeriod(annotations ?? [], period.start, period.end).length;
  return (
    <Button
      variant="minimal"
      icon="annotation"
      aria-label={`Annotations: ${count}`}
      onClick={() => setParams(openDrawerParams(params, 'annotations', { start: period.start, end: period.end }))}
      endIcon={
        count > 0 ? (
          <Tag round intent={Intent.PRIMARY} className="or-report-badge">
            {count}
          </Tag>
        ) : undefined
      }
    />
  );
}

function ShareButton({ report }: { report: Report }) {
  const [params, setParams] = useSearchParams();
  return (
    <Button
      variant="minimal"
      icon="people"
      text="Share"
      onClick={() =>
        setParams(openDrawerParams(params, 'share', { objectType: report.type, objectId: String(report.id) }))
      }
    />
  );
}

function ReportMenu({ report, reportKey: key }: { report: Report; reportKey: string }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const actions = useReportActions(report.workspace_id);
  const [dialog, setDialog] = useState<'rename' | 'delete' | null>(null);

  const duplicate = async () => {
    const copy = await actions.duplicate(report);
    if (copy) void navigate(reportPath(report.workspace_id, copy));
  };
  const rename = async (title: string) => {
    const result = await actions.rename(report, title);
    if (result) dispatch(renamed({ key, report: result }));
  };
  const remove = async () => {
    if (!(await actions.remove(report))) return;
    dispatch(documentClosed({ key }));
    void navigate(reportPath(report.workspace_id));
  };

  return (
    <>
      <PopoverNext
        shouldReturnFocusOnClose={false}
        placement="bottom-end"
        content={
          <Menu>
            <MenuItem icon="duplicate" text="Duplicate" onClick={() => void duplicate()} />
            {can.write(report.access_level) && (
              <MenuItem icon="edit" text="Rename" onClick={() => setDialog('rename')} />
            )}
            {can.delete(report.access_level) && (
              <MenuItem icon="trash" text="Delete" intent={Intent.DANGER} onClick={() => setDialog('delete')} />
            )}
          </Menu>
        }
      >
        <Button variant="minimal" icon="more" aria-label="Report menu" />
      </PopoverNext>
      {dialog === 'rename' && (
        <RenameReportDialog
          title={report.title}
          onConfirm={(title) => void rename(title)}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'delete' && <DeleteReportDialog onConfirm={() => void remove()} onClose={() => setDialog(null)} />}
    </>
  );
}
