/** Bad URL input: say what was wrong and how to fix it, instead of a stack trace. */
export function ParamError({ message }: { message: string }) {
  return (
    <div className="error-box" role="alert" data-testid="param-error">
      <strong>Cannot show this page:</strong> {message}
    </div>
  );
}
