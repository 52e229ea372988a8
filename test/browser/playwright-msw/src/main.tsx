// docs/frontend.md's dev app with the mock in the page: MSW's worker, started in development
// only, before the app renders in React's StrictMode (every effect runs twice, the first
// answer ignored, as React's docs recommend).
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

interface Category {
  id: number;
  name: string;
}

if (import.meta.env.DEV) {
  const { setupWorker } = await import('msw/browser');
  const { mockHandlers } = await import('petstore-kit/msw');
  const mock = await mockHandlers();
  await setupWorker(...mock.handlers).start({ onUnhandledRequest: 'bypass', quiet: true });
}

function Categories() {
  const [categories, setCategories] = useState<Category[]>([]);
  const [error, setError] = useState('');
  useEffect(() => {
    let ignore = false;
    fetch('/v1/categories', { headers: { Authorization: 'Bearer petstore-kit-dev-key' } })
      .then(async (res) => {
        const body = (await res.json()) as Category[] | { message: string };
        if (ignore) return;
        if (res.ok) setCategories(body as Category[]);
        else setError((body as { message: string }).message);
      })
      .catch((err: Error) => ignore || setError(err.message));
    return () => {
      ignore = true;
    };
  }, []);
  return (
    <main>
      {error && <p role="alert">{error}</p>}
      <ul>
        {categories.map((category) => (
          <li key={category.id}>{category.name}</li>
        ))}
      </ul>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Categories />
  </StrictMode>,
);
