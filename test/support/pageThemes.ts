/**
 * The theme variables VS Code sets on a webview's `<html>`, for our pages in Chromium outside VS
 * Code: the colours our stylesheets read, as VS Code's Light Modern, Dark Modern and Dark High
 * Contrast themes give them (high contrast leaves button backgrounds unset and draws borders).
 */
const common = {
  'font-family': 'system-ui, sans-serif', 'font-size': '13px', 'editor-font-family': 'monospace', 'editor-font-size': '13px',
  'charts-blue': '#3794ff', 'charts-orange': '#d18616', 'charts-green': '#89d185', 'charts-purple': '#b180d7', 'charts-yellow': '#cca700', 'charts-red': '#f14c4c',
};

export const THEMES = {
  light: {
    ...common, 'badge-background': '#CCCCCC', 'badge-foreground': '#3B3B3B', 'button-background': '#005FB8', 'button-border': '#0000001a',
    'button-foreground': '#FFFFFF', 'button-hoverBackground': '#0258A8', 'button-secondaryBackground': '#E5E5E5', 'button-secondaryForeground': '#3B3B3B',
    'button-secondaryHoverBackground': '#CCCCCC', 'descriptionForeground': '#3B3B3B', 'dropdown-background': '#FFFFFF', 'dropdown-border': '#CECECE',
    'dropdown-foreground': '#3B3B3B', 'editor-background': '#FFFFFF', 'editorWidget-background': '#F8F8F8', 'errorForeground': '#F85149',
    'focusBorder': '#005FB8', 'foreground': '#3B3B3B', 'icon-foreground': '#3B3B3B', 'input-background': '#FFFFFF', 'input-border': '#CECECE',
    'input-foreground': '#3B3B3B', 'panel-border': '#E5E5E5', 'sideBar-background': '#F8F8F8', 'textBlockQuote-background': '#F8F8F8',
    'textBlockQuote-border': '#E5E5E5', 'textCodeBlock-background': '#F8F8F8', 'textLink-activeForeground': '#005FB8', 'textLink-foreground': '#005FB8',
    'widget-border': '#E5E5E5', 'inputValidation-errorBackground': '#F2DEDE', 'inputValidation-errorBorder': '#BE1100', 'inputValidation-infoBackground': '#D6ECF2',
    'inputValidation-infoBorder': '#007ACC', 'editorWarning-foreground': '#BF8803', 'testing-iconPassed': '#73C991', 'toolbar-hoverBackground': '#B8B8B850',
  },
  dark: {
    ...common, 'badge-background': '#616161', 'badge-foreground': '#F8F8F8', 'button-background': '#0078D4', 'button-border': '#ffffff1a',
    'button-foreground': '#FFFFFF', 'button-hoverBackground': '#026EC1', 'button-secondaryBackground': '#00000000', 'button-secondaryForeground': '#CCCCCC',
    'button-secondaryHoverBackground': '#2B2B2B', 'descriptionForeground': '#9D9D9D', 'dropdown-background': '#313131', 'dropdown-border': '#3C3C3C',
    'dropdown-foreground': '#CCCCCC', 'editor-background': '#1F1F1F', 'editorWidget-background': '#202020', 'errorForeground': '#F85149',
    'focusBorder': '#0078D4', 'foreground': '#CCCCCC', 'icon-foreground': '#CCCCCC', 'input-background': '#313131', 'input-border': '#3C3C3C',
    'input-foreground': '#CCCCCC', 'panel-border': '#2B2B2B', 'sideBar-background': '#181818', 'textBlockQuote-background': '#2B2B2B',
    'textBlockQuote-border': '#616161', 'textCodeBlock-background': '#2B2B2B', 'textLink-activeForeground': '#4daafc', 'textLink-foreground': '#4daafc',
    'widget-border': '#313131', 'inputValidation-errorBackground': '#5A1D1D', 'inputValidation-errorBorder': '#BE1100', 'inputValidation-infoBackground': '#063B49',
    'inputValidation-infoBorder': '#007ACC', 'editorWarning-foreground': '#CCA700', 'testing-iconPassed': '#73C991', 'toolbar-hoverBackground': '#5A5D5E50',
  },
  highContrast: {
    ...common, 'badge-background': '#000000', 'badge-foreground': '#FFFFFF', 'button-border': '#6FC3DF', 'button-foreground': '#FFFFFF',
    'button-secondaryForeground': '#FFFFFF', 'contrastBorder': '#6FC3DF', 'contrastActiveBorder': '#F38518', 'descriptionForeground': '#FFFFFFB3',
    'dropdown-background': '#000000', 'dropdown-border': '#6FC3DF', 'dropdown-foreground': '#FFFFFF', 'editor-background': '#000000',
    'editorWidget-background': '#0C141F', 'errorForeground': '#F48771', 'focusBorder': '#F38518', 'foreground': '#FFFFFF', 'icon-foreground': '#FFFFFF',
    'input-background': '#000000', 'input-border': '#6FC3DF', 'input-foreground': '#FFFFFF', 'panel-border': '#6FC3DF', 'textBlockQuote-border': '#FFFFFF',
    'textCodeBlock-background': '#000000', 'textLink-activeForeground': '#21A6FF', 'textLink-foreground': '#21A6FF', 'widget-border': '#6FC3DF',
    'inputValidation-errorBackground': '#000000', 'inputValidation-errorBorder': '#6FC3DF', 'inputValidation-infoBackground': '#000000',
    'inputValidation-infoBorder': '#6FC3DF', 'editorWarning-foreground': '#FFD370', 'testing-iconPassed': '#73C991',
  },
} satisfies Record<string, Record<string, string>>;

export type ThemeName = keyof typeof THEMES;

/** The theme as VS Code writes it: `--vscode-<name>` custom properties on the root element. */
export const themeCss = (theme: ThemeName) =>
  `html { ${Object.entries(THEMES[theme]).map(([k, v]) => `--vscode-${k}: ${v};`).join(' ')} }`;
