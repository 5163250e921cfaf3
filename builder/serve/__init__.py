"""``appendix serve``: build, serve the site on this machine, rebuild when an input changes.

The loop (``preview``): build (incrementally: ``builder.pipeline.incremental``), serve the
output folder (``http``), watch the config, the files and folders it names and the templates
(``watch``); on a change, build again and have every open page reload itself. A build that
fails leaves the last good site served, and its error is shown on the console and on every
page served until a build succeeds. Ctrl-C (SIGINT) or SIGTERM stops the server and the
watching, and removes the temporary output folder when none was given.

Like ``mkdocs serve`` and ``hugo server``: a preview for the organisers on their own machine,
bound to 127.0.0.1 unless told otherwise; not a server to publish with.
"""
