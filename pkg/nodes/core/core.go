// Package core registers the built-in node types. Adding a node is one folder under pkg/nodes
// and one line here (see pkg/nodes/doc.go).
package core

import (
	"github.com/flowmill/flowmill/pkg/config"
	"github.com/flowmill/flowmill/pkg/nodes"
	"github.com/flowmill/flowmill/pkg/nodes/aggregate"
	"github.com/flowmill/flowmill/pkg/nodes/code"
	"github.com/flowmill/flowmill/pkg/nodes/comparedatasets"
	"github.com/flowmill/flowmill/pkg/nodes/compression"
	"github.com/flowmill/flowmill/pkg/nodes/cron"
	"github.com/flowmill/flowmill/pkg/nodes/crypto"
	"github.com/flowmill/flowmill/pkg/nodes/datetime"
	"github.com/flowmill/flowmill/pkg/nodes/debughelper"
	"github.com/flowmill/flowmill/pkg/nodes/editimage"
	"github.com/flowmill/flowmill/pkg/nodes/emailreadimap"
	"github.com/flowmill/flowmill/pkg/nodes/emailsend"
	"github.com/flowmill/flowmill/pkg/nodes/errortrigger"
	"github.com/flowmill/flowmill/pkg/nodes/executecommand"
	"github.com/flowmill/flowmill/pkg/nodes/executeworkflow"
	"github.com/flowmill/flowmill/pkg/nodes/executeworkflowtrigger"
	"github.com/flowmill/flowmill/pkg/nodes/filter"
	"github.com/flowmill/flowmill/pkg/nodes/ftp"
	"github.com/flowmill/flowmill/pkg/nodes/function"
	"github.com/flowmill/flowmill/pkg/nodes/functionitem"
	"github.com/flowmill/flowmill/pkg/nodes/graphql"
	"github.com/flowmill/flowmill/pkg/nodes/html"
	"github.com/flowmill/flowmill/pkg/nodes/htmlextract"
	"github.com/flowmill/flowmill/pkg/nodes/httprequest"
	"github.com/flowmill/flowmill/pkg/nodes/icalendar"
	"github.com/flowmill/flowmill/pkg/nodes/ifnode"
	"github.com/flowmill/flowmill/pkg/nodes/interval"
	"github.com/flowmill/flowmill/pkg/nodes/itemlists"
	"github.com/flowmill/flowmill/pkg/nodes/limit"
	"github.com/flowmill/flowmill/pkg/nodes/localfiletrigger"
	"github.com/flowmill/flowmill/pkg/nodes/manualtrigger"
	"github.com/flowmill/flowmill/pkg/nodes/markdown"
	"github.com/flowmill/flowmill/pkg/nodes/merge"
	"github.com/flowmill/flowmill/pkg/nodes/movebinarydata"
	"github.com/flowmill/flowmill/pkg/nodes/mqtt"
	"github.com/flowmill/flowmill/pkg/nodes/mqtttrigger"
	"github.com/flowmill/flowmill/pkg/nodes/mysql"
	"github.com/flowmill/flowmill/pkg/nodes/noop"
	"github.com/flowmill/flowmill/pkg/nodes/postgres"
	"github.com/flowmill/flowmill/pkg/nodes/postgrestrigger"
	"github.com/flowmill/flowmill/pkg/nodes/rabbitmq"
	"github.com/flowmill/flowmill/pkg/nodes/rabbitmqtrigger"
	"github.com/flowmill/flowmill/pkg/nodes/readbinaryfile"
	"github.com/flowmill/flowmill/pkg/nodes/readbinaryfiles"
	"github.com/flowmill/flowmill/pkg/nodes/readpdf"
	"github.com/flowmill/flowmill/pkg/nodes/redis"
	"github.com/flowmill/flowmill/pkg/nodes/redistrigger"
	"github.com/flowmill/flowmill/pkg/nodes/removeduplicates"
	"github.com/flowmill/flowmill/pkg/nodes/renamekeys"
	"github.com/flowmill/flowmill/pkg/nodes/respondtowebhook"
	"github.com/flowmill/flowmill/pkg/nodes/rssfeedread"
	"github.com/flowmill/flowmill/pkg/nodes/rssfeedreadtrigger"
	"github.com/flowmill/flowmill/pkg/nodes/scheduletrigger"
	"github.com/flowmill/flowmill/pkg/nodes/set"
	"github.com/flowmill/flowmill/pkg/nodes/sort"
	"github.com/flowmill/flowmill/pkg/nodes/splitinbatches"
	"github.com/flowmill/flowmill/pkg/nodes/splitout"
	"github.com/flowmill/flowmill/pkg/nodes/spreadsheetfile"
	"github.com/flowmill/flowmill/pkg/nodes/ssh"
	"github.com/flowmill/flowmill/pkg/nodes/start"
	"github.com/flowmill/flowmill/pkg/nodes/stickynote"
	"github.com/flowmill/flowmill/pkg/nodes/stopanderror"
	"github.com/flowmill/flowmill/pkg/nodes/summarize"
	"github.com/flowmill/flowmill/pkg/nodes/switchnode"
	"github.com/flowmill/flowmill/pkg/nodes/totp"
	"github.com/flowmill/flowmill/pkg/nodes/trainingdatastore"
	"github.com/flowmill/flowmill/pkg/nodes/trainingmessenger"
	"github.com/flowmill/flowmill/pkg/nodes/wait"
	"github.com/flowmill/flowmill/pkg/nodes/webhook"
	"github.com/flowmill/flowmill/pkg/nodes/workflowtrigger"
	"github.com/flowmill/flowmill/pkg/nodes/writebinaryfile"
	"github.com/flowmill/flowmill/pkg/nodes/xml"
)

// Register adds every built-in node type to r.
func Register(r *nodes.Registry) {
	r.MustRegister(start.Type())
	r.MustRegister(manualtrigger.Type())
	r.MustRegister(noop.Type())
	r.MustRegister(stickynote.Type())
	r.MustRegister(set.Type())
	r.MustRegister(set.TypeV3())
	r.MustRegister(ifnode.Type())
	r.MustRegister(ifnode.TypeV2())
	r.MustRegister(filter.TypeV1())
	r.MustRegister(filter.TypeV2())
	r.MustRegister(switchnode.Type())
	r.MustRegister(merge.TypeV1())
	r.MustRegister(merge.TypeV2())
	r.MustRegister(webhook.Type())
	r.MustRegister(httprequest.TypeV1())
	r.MustRegister(httprequest.TypeV2())
	r.MustRegister(readbinaryfile.Type())
	r.MustRegister(readbinaryfiles.Type())
	r.MustRegister(writebinaryfile.Type())
	r.MustRegister(movebinarydata.Type())
	r.MustRegister(cron.Type())
	r.MustRegister(interval.Type())
	r.MustRegister(scheduletrigger.Type())
	r.MustRegister(respondtowebhook.Type())
	r.MustRegister(code.Type())
	r.MustRegister(function.Type())
	r.MustRegister(functionitem.Type())
	r.MustRegister(wait.Type())
	r.MustRegister(errortrigger.Type())
	r.MustRegister(splitinbatches.TypeV1())
	r.MustRegister(splitinbatches.TypeV2())
	r.MustRegister(itemlists.TypeV1())
	r.MustRegister(itemlists.TypeV2())
	r.MustRegister(comparedatasets.Type())
	r.MustRegister(executeworkflow.Type())
	r.MustRegister(renamekeys.Type())
	r.MustRegister(executecommand.Type())
	r.MustRegister(datetime.Type())
	r.MustRegister(datetime.TypeV2())
	r.MustRegister(itemlists.TypeV3())
	r.MustRegister(aggregate.Type())
	r.MustRegister(limit.Type())
	r.MustRegister(removeduplicates.Type())
	r.MustRegister(sort.Type())
	r.MustRegister(splitout.Type())
	r.MustRegister(summarize.Type())
	r.MustRegister(switchnode.TypeV2())
	r.MustRegister(switchnode.TypeV3())
	r.MustRegister(trainingdatastore.Type())
	r.MustRegister(trainingmessenger.Type())
	r.MustRegister(debughelper.Type())
	r.MustRegister(merge.TypeV3())
	r.MustRegister(htmlextract.Type())
	r.MustRegister(html.Type())
	r.MustRegister(icalendar.Type())
	r.MustRegister(crypto.Type())
	r.MustRegister(stopanderror.Type())
	r.MustRegister(compression.Type())
	r.MustRegister(xml.Type())
	r.MustRegister(markdown.Type())
	r.MustRegister(totp.Type())
	r.MustRegister(spreadsheetfile.Type())
	r.MustRegister(readpdf.Type())
	r.MustRegister(splitinbatches.TypeV3())
	r.MustRegister(removeduplicates.TypeV2())
	r.MustRegister(editimage.Type())
	r.MustRegister(graphql.Type())
	r.MustRegister(httprequest.TypeV3())
	r.MustRegister(emailreadimap.TypeV1())
	r.MustRegister(emailreadimap.TypeV2())
	r.MustRegister(localfiletrigger.Type())
	r.MustRegister(emailsend.TypeV1())
	r.MustRegister(emailsend.TypeV2())
	r.MustRegister(rssfeedread.Type())
	r.MustRegister(rssfeedreadtrigger.Type())
	r.MustRegister(ssh.Type())
	r.MustRegister(ftp.Type())
	r.MustRegister(executeworkflowtrigger.Type())
	r.MustRegister(workflowtrigger.Type())
	r.MustRegister(postgres.TypeV1())
	r.MustRegister(postgres.TypeV2())
	r.MustRegister(mysql.Type())
	r.MustRegister(mysql.TypeV2())
	r.MustRegister(redis.Type())
	r.MustRegister(rabbitmq.Type())
	r.MustRegister(rabbitmqtrigger.Type())
	r.MustRegister(mqtt.Type())
	r.MustRegister(mqtttrigger.Type())
	r.MustRegister(redistrigger.Type())
	r.MustRegister(postgrestrigger.Type())
}

// Registry returns a new registry holding the built-in node types.
func Registry() *nodes.Registry {
	r := nodes.NewRegistry()
	Register(r)
	return r
}

// ForInstance returns the built-in node types an instance with settings c offers: without the
// types FLOWMILL_NODES_EXCLUDE names, nor the off-by-default ones (config.OffByDefaultNodes)
// FLOWMILL_NODES_ENABLE does not turn on. Every process builds its registry here, so the
// editor's node list, runs, activation and previews agree.
func ForInstance(c *config.Config) *nodes.Registry {
	return Registry().Disable(c.DisabledNodes())
}
