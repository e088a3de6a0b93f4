import { Button, Callout, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useState } from 'react';
import type { CustomField } from '../../contracts/dataModel';
import { allowedConditions, fieldMessages, type FieldErrors } from '../../engine/dataModel/validation';
import { FieldGroup } from '../shell/components/FieldGroup';
import type { TableField } from './dataModelSlice';

type Rule = NonNullable<CustomField['rules']>[number];

const conditionLabels: Record<string, string> = {
  equals: 'Equals',
  notEquals: 'Does not equal',
  contains: 'Contains',
  notContains: 'Does not contain',
  startsWith: 'Starts with',
  endsWith: 'Ends with',
  regex: 'Matches',
};

export interface RulesEditorProps {
  field: CustomField;
  /** The dimensions above the field: the only ones its rules may read. */
  earlier: TableField[];
  errors: FieldErrors | undefined;
  onChange(changes: Pick<CustomField, 'rules'> | Pick<CustomField, 'rules_else'>): void;
  onMove(from: number, to: number): void;
}

const text = (value: Rule['value']) => (value === null || value === undefined ? '' : String(value));

/**
 * A dimension's rules (first match wins) and its default, one new rule at a time.
 * Long because it is one form over a dimension's rules and default, each control a few lines.
 */
export function RulesEditor({ field, earlier, errors, onChange, onMove }: RulesEditorProps) {
  const [finishFirst, setFinishFirst] = useState(false);
  const rules = field.rules ?? [];
  const dimensions = earlier.filter((other) => other.type === 'dimension');
  const setRule = (index: number, changes: Partial<Rule>) =>
    onChange({ rules: rules.map((rule, at) => (at === index ? { ...rule, ...changes } : rule)) });
  const add = () => {
    const unfinished = errors?.ruleErrors?.some((ruleErrors) => Object.keys(ruleErrors).length > 0);
    setFinishFirst(Boolean(unfinished));
    if (!unfinished) onChange({ rules: [...rules, { field: '', type: 'equals', value: '', result: '' }] });
  };

  return (
    <section aria-label="Rules">
      {rules.map((rule, index) => {
        const ruleErrors = errors?.ruleErrors?.[index] ?? {};
        const target = dimensions.find((dimension) => dimension.id === rule.field);
        const conditions = target ? allowedConditions(target.format ?? '') : ['equals'];
        return (
          <fieldset key={index} className="or-data-model-rule" aria-label={`Rule ${index + 1}`}>
            <FieldGroup label="Field" error={ruleErrors.field}>
              <HTMLSelect
                aria-label="Field"
                value={rule.field ?? ''}
                options={[
                  { value: '', label: 'Choose a field' },
                  ...dimensions.map((d) => ({ value: d.id ?? '', label: d.name ?? d.id ?? '' })),
                ]}
                onChange={(event) => setRule(index, { field: event.currentTarget.value, type: 'equals' })}
              />
            </FieldGroup>
            <FieldGroup label="Condition" error={ruleErrors.type}>
              <HTMLSelect
                aria-label="Condition"
                value={rule.type ?? 'equals'}
                options={conditions.map((condition) => ({ value: condition, label: conditionLabels[condition] }))}
                onChange={(event) => setRule(index, { type: event.currentTarget.value })}
              />
            </FieldGroup>
            <FieldGroup label="Value" error={ruleErrors.value}>
              <InputGroup
                aria-label="Value"
                value={text(rule.value)}
                onValueChange={(value) => setRule(index, { value })}
              />
            </FieldGroup>
            <FormGroup label="Result">
              <InputGroup
                aria-label="Result"
                value={text(rule.result)}
                onValueChange={(result) => setRule(index, { result })}
              />
            </FormGroup>
            <div className="or-data-model-rule-actions">
              <Button
                icon="arrow-up"
                variant="minimal"
                aria-label="Move rule up"
                disabled={index === 0}
                onClick={() => onMove(index, index - 1)}
              />
              <Button
                icon="arrow-down"
                variant="minimal"
                aria-label="Move rule down"
                disabled={index === rules.length - 1}
                onClick={() => onMove(index, index + 1)}
              />
              <Button
                icon="trash"
                variant="minimal"
                aria-label="Remove rule"
                onClick={() => onChange({ rules: rules.filter((_, at) => at !== index) })}
              />
            </div>
          </fieldset>
        );
      })}
      {errors?.rules && (
        <Callout intent="danger" compact>
          {errors.rules}
        </Callout>
      )}
      {finishFirst && (
        <Callout intent="warning" compact>
          {fieldMessages.finishRule}
        </Callout>
      )}
      <Button icon="add" text="Add rule" onClick={add} />
      <FormGroup label="Default value" labelFor="or-data-model-else" helperText="Used when no rule matches (optional)">
        <InputGroup
          id="or-data-model-else"
          value={text(field.rules_else)}
          onValueChange={(value) => onChange({ rules_else: value === '' ? null : value })}
        />
      </FormGroup>
    </section>
  );
}
