"""The commands that take a built site further: pack it with its inputs for a deposit
(``archive``), check an archive or a site against its inputs (``verify``), preview it while
its inputs change (``serve``)."""
