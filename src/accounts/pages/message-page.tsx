// A page that only says something: not found, form refused, too large, an error.
import { Layout } from './layout.js';

interface MessageView {
  title: string;
  explanation: string;
  /** Reference of an unexpected error, also in the server log. */
  errorId?: string;
}

export function MessagePage({ title, explanation, errorId }: MessageView) {
  return (
    <Layout title={title} narrow>
      <div class="card">
        <h1>{title}</h1>
        <p>{explanation}</p>
        {errorId && <p class="aside">{`Reference: ${errorId}`}</p>}
        <p>
          <a href="/">Go to the start page</a>
        </p>
      </div>
    </Layout>
  );
}
