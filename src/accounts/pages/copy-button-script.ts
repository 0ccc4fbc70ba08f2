// The only script of the web pages: copy buttons. A button is hidden in the
// HTML and shown here, so that without JavaScript no dead button is offered.
export const copyButtonScript = `'use strict';
for (const button of document.querySelectorAll('button[data-copy]')) {
  const source = document.getElementById(button.dataset.copy);
  if (!source || !navigator.clipboard) continue;
  button.hidden = false;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(source.textContent.trim());
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Copy failed: select the key and copy it';
    }
  });
}
`;
