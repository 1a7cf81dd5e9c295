/** The shapes of n8n's public templates API (spec 000 §3), as the templates host answers them. */

export interface TemplateCategory {
  id: number;
  name: string;
}

/** A node type a template uses: enough to draw its icon and name. */
export interface TemplateNode {
  id?: number;
  name: string;
  displayName: string;
  icon?: string;
  iconData?: { type: string; icon?: string; fileBuffer?: string };
  defaults?: { name?: string; color?: string };
  typeVersion?: number;
  categories?: TemplateCategory[];
}

/** A template as listed: no description, no workflow. */
export interface TemplateSummary {
  id: number;
  name: string;
  createdAt: string;
  totalViews: number;
  user: { username: string };
  nodes: TemplateNode[];
}

export interface TemplateWorkflowData {
  nodes: unknown[];
  connections: Record<string, unknown>;
}

export interface TemplateDetail extends TemplateSummary {
  description: string | null;
  image: Array<{ id: number; url: string }>;
  categories: TemplateCategory[];
  workflow: TemplateWorkflowData;
}

export interface CollectionSummary {
  id: number;
  name: string;
  nodes: TemplateNode[];
  workflows: Array<{ id: number }>;
}

export interface CollectionDetail {
  id: number;
  name: string;
  description: string | null;
  image: Array<{ id: number; url: string }>;
  categories: TemplateCategory[];
  createdAt: string;
  nodes: TemplateNode[];
  workflows: TemplateSummary[];
}

/** What "Use this workflow" imports (n8n's IWorkflowTemplate). */
export interface WorkflowTemplate {
  id: number;
  name: string;
  workflow: TemplateWorkflowData;
}
