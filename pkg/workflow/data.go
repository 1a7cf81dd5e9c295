package workflow

// Item is one unit of data flowing between nodes: n8n's INodeExecutionData.
type Item struct {
	JSON       *Object               `json:"json"`
	Binary     map[string]BinaryData `json:"binary,omitempty"`
	PairedItem *PairedItems          `json:"pairedItem,omitempty"`
	// Error is set on items produced by a node that failed with continueOnFail.
	Error *ExecutionError `json:"error,omitempty"`
}

// PairedItem points at the input item an output item was derived from.
type PairedItem struct {
	Item  int `json:"item"`
	Input int `json:"input,omitempty"`
}

// PairedItems holds one or several paired items. n8n writes a lone object, a list, or a bare
// number; all three are read, and one entry is written as a lone object.
type PairedItems []PairedItem

// BinaryData is one binary property of an item. Data is base64 when held inline; ID names the
// stored blob when the data was moved out of the item.
type BinaryData struct {
	ID            string `json:"id,omitempty"`
	Data          string `json:"data"`
	MimeType      string `json:"mimeType"`
	FileName      string `json:"fileName,omitempty"`
	Directory     string `json:"directory,omitempty"`
	FileExtension string `json:"fileExtension,omitempty"`
	FileSize      string `json:"fileSize,omitempty"`
	FileType      string `json:"fileType,omitempty"`
}

// SourceData says which node output fed one input of a node run.
type SourceData struct {
	PreviousNode       string `json:"previousNode"`
	PreviousNodeOutput int    `json:"previousNodeOutput,omitempty"`
	PreviousNodeRun    int    `json:"previousNodeRun,omitempty"`
}

// TaskDataConnections holds the items per output of one node run. An output without items is
// nil and serialises as null.
type TaskDataConnections struct {
	Main [][]Item `json:"main"`
}

// TaskData is the record of one run of one node (n8n's ITaskData). Times are Unix milliseconds.
type TaskData struct {
	StartTime     int64                `json:"startTime"`
	ExecutionTime int64                `json:"executionTime"`
	Source        []*SourceData        `json:"source"`
	Data          *TaskDataConnections `json:"data,omitempty"`
	Error         *ExecutionError      `json:"error,omitempty"`
}

// RunData maps a node name to its runs, in run order.
type RunData map[string][]TaskData

// ExecutionError is the serialised form of an error raised by a node or the engine.
type ExecutionError struct {
	Name        string         `json:"name,omitempty"`
	Message     string         `json:"message"`
	Description string         `json:"description,omitempty"`
	HTTPCode    string         `json:"httpCode,omitempty"`
	Timestamp   int64          `json:"timestamp,omitempty"`
	Stack       string         `json:"stack,omitempty"`
	Cause       any            `json:"cause,omitempty"`
	Context     map[string]any `json:"context,omitempty"`
	// Node is the name of the node that raised the error, when there is one.
	Node string `json:"node,omitempty"`
}

func (e *ExecutionError) Error() string { return e.Message }
