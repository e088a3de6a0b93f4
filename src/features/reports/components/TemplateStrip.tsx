import { Card, H3, Icon, Tag } from '@blueprintjs/core';
import { type ReportTemplate } from '../templates';
import { reportTypeIcon } from './ReportLabel';

export interface TemplateStripProps {
  templates: ReportTemplate[];
  /** True while a report is being created: the cards do not answer meanwhile. */
  busy: boolean;
  onPick: (template: ReportTemplate) => void;
}

/** Spec 2 §2: the 'Create a new report' template strip. */
export function TemplateStrip({ templates, busy, onPick }: TemplateStripProps) {
  return (
    <section className="or-template-strip" aria-labelledby="or-template-strip-title">
      <H3 id="or-template-strip-title">Create a new report</H3>
      <div className="or-template-cards">
        {templates.map((template) => (
          <Card
            key={template.id}
            interactive={!busy}
            compact
            role="button"
            tabIndex={0}
            aria-disabled={busy}
            className="or-template-card"
            onClick={() => !busy && onPick(template)}
            onKeyDown={(event) => {
              if (!busy && (event.key === 'Enter' || event.key === ' ')) {
                event.preventDefault();
                onPick(template);
              }
            }}
          >
            <Icon icon={reportTypeIcon[template.type]} size={20} />
            <div>
              {/* The card's text is its accessible name: 'Create' there too, read out but not shown. */}
              <strong>
                <span className="or-visually-hidden">Create </span>
                {template.title}
              </strong>
              {template.beta && (
                <Tag minimal intent="primary" className="or-template-beta">
                  Beta
                </Tag>
              )}
              <p>{template.description}</p>
            </div>
          </Card>
        ))}
      </div>
    </section>
  );
}
