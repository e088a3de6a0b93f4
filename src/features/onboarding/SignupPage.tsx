import { Button, Callout, Checkbox, InputGroup, Menu, MenuItem, TagInput } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useGetMeQuery, useSignupMutation } from '../auth/authApi';
import { AuthLayout } from '../auth/components/AuthLayout';
import { SUPPORT_EMAIL } from '../auth/loginMessages';
import { errorCode } from '../session/apiErrors';
import { FieldGroup } from '../shell/components/FieldGroup';
import { AUTOMATION_TOOLS, validateSignup, type SignupErrors } from './signupForm';

/**
 * /welcome: the older onboarding form (name, company, automation tools, newsletter).
 * Long because it is one form over its fields' state and validation, each field a few lines.
 */
export function SignupPage() {
  const navigate = useNavigate();
  const { data: user } = useGetMeQuery();
  const [name, setName] = useState(user && !user.needsName ? user.name : '');
  const [company, setCompany] = useState('');
  const [esp, setEsp] = useState<string[]>([]);
  const [typed, setTyped] = useState('');
  const [newsletter, setNewsletter] = useState(true);
  const [errors, setErrors] = useState<SignupErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [signup, { isLoading }] = useSignupMutation();

  const addTool = (tool: string) => {
    const value = tool.trim();
    if (value && !esp.includes(value)) setEsp([...esp, value]);
    setTyped('');
  };
  const suggestions = AUTOMATION_TOOLS.filter(
    (tool) => !esp.includes(tool) && tool.toLowerCase().includes(typed.trim().toLowerCase()),
  );

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = validateSignup({ name, company, esp, newsletter_opt_in: newsletter });
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setFailure(null);
    try {
      await signup(checked.body).unwrap();
      navigate('/dashboard');
    } catch (error) {
      setFailure(errorCode(error) ?? `Something went wrong. Please contact us at ${SUPPORT_EMAIL}.`);
    }
  };

  return (
    <AuthLayout title="Tell us about yourself">
      {failure && <Callout intent="danger">{failure}</Callout>}
      <form onSubmit={(event) => void onSubmit(event)}>
        <FieldGroup label="Name" labelFor="signup-name" error={errors.name}>
          <InputGroup id="signup-name" value={name} onValueChange={setName} />
        </FieldGroup>
        <FieldGroup label="Company" labelFor="signup-company" error={errors.company}>
          <InputGroup id="signup-company" value={company} onValueChange={setCompany} />
        </FieldGroup>
        <FieldGroup label="Marketing automation software" labelFor="signup-esp" error={errors.esp}>
          <TagInput
            inputProps={{ id: 'signup-esp' }}
            values={esp}
            inputValue={typed}
            onInputChange={(event) => setTyped(event.currentTarget.value)}
            onAdd={(values) => values.forEach(addTool)}
            onRemove={(_value, index) => setEsp(esp.filter((_tool, i) => i !== index))}
            // Enter adds the typed tool; it must not submit the whole form as well.
            onKeyDown={(event) => {
              if (event.key === 'Enter') event.preventDefault();
            }}
            placeholder="Choose or type tools"
          />
          {typed.trim() && suggestions.length > 0 && (
            <Menu className="or-suggestions">
              {suggestions.slice(0, 8).map((tool) => (
                <MenuItem key={tool} text={tool} onClick={() => addTool(tool)} />
              ))}
            </Menu>
          )}
        </FieldGroup>
        <Checkbox
          label="Keep me posted with the newsletter"
          checked={newsletter}
          onChange={(event) => setNewsletter(event.currentTarget.checked)}
        />
        <Button type="submit" intent="primary" size="large" fill loading={isLoading} text="Continue" />
      </form>
    </AuthLayout>
  );
}
