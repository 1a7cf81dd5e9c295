import classes from './parameters.module.css';

/** The issues of one parameter, under its input. */
export function ParameterIssues({ issues }: { issues: readonly string[] }) {
  if (issues.length === 0) return null;
  return (
    <div className={classes.issues} data-test-id="parameter-issues" role="alert">
      {issues.map((issue) => (
        <div key={issue}>{issue}</div>
      ))}
    </div>
  );
}
