// Package nodes defines node types: their descriptions (the JSON the editor needs, in n8n's
// INodeTypeDescription shape), the execution interface, and the registry the engine and the API
// read. The built-in nodes live one per folder below this package and are registered by
// pkg/nodes/core.
//
// # Adding a node
//
//  1. Create a folder pkg/nodes/<name> (package <name>; use a suffix such as ifnode when the
//     name is a Go keyword) with:
//     - description.json: the node description as n8n writes it, with the full type name
//     ("n8n-nodes-base.<name>"), version (a number or a list), defaults, inputs, outputs,
//     properties and codex (categories ["Core Nodes"], subcategories {"Core Nodes": [Flow |
//     Files | Data Transformation | Helpers]}). A node with versions that differ in
//     parameters gets one file per version group (see merge).
//     - <name>.go: embed the description and return it from a Type() function:
//     nodes.Define(descriptionJSON, kind, execute), then set LoadOptions or IconSVG on the
//     result if the node has them. Kind is KindAction for nodes that work on their input,
//     KindTrigger/KindPoll for triggers (Execute gives the manual-mode output), KindWebhook
//     for webhook starters. A node that hands its input on unchanged uses
//     nodes.PassThrough as execute.
//     - <name>_test.go: table tests through pkg/nodes/nodetest.
//  2. Add one line to pkg/nodes/core/core.go: r.MustRegister(<name>.Type()).
//
// # Writing Execute
//
// Execute(ctx, ex) reads inputs with ex.InputData(i) and parameters per item with ex.Param,
// ex.ParamString, ex.ParamList … (defaults are already resolved and expressions evaluated for
// the item), and returns the items per output index. Do not modify input items: copy the JSON
// first (workflow.CopyJSON). Items passed on unchanged keep their pairedItem; new items should
// set PairedItem to the input item they came from (the engine fills it in when the link is
// certain). On a per-item error, return ex.ErrorItem(err, i) in the output when
// ex.ContinueOnFail() is on, else return a *nodes.Error (nodes.Errorf) naming the item; the
// engine records it on the run. Long-running work must honour ctx (cancellation and the
// execution timeout). ex.StaticData() is the node's persistent data; ex.Console forwards
// console output; ex.RunScript runs Code/Function node scripts in the sandbox; BinaryBytes and
// NewBinary read and write inline binary data. ex.Now and ex.Sleep use the engine's clock (tests
// inject it); ex.PutExecutionToWait stops the run after the node and saves it as waiting (Wait);
// ex.LoadWorkflow and ex.ExecuteWorkflow load and run sub-workflows (Execute Workflow).
package nodes
